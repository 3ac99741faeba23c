/**
 * The sample deck's key and name, apart from its notes (sample-deck.ts): the
 * SDK looks for an existing sample deck by its key on the dashboard, and
 * loads the notes only when it adds one.
 */

/** Names this content in the import that made the deck, so a second request finds the first deck. */
export const sampleDeckKey = "how-memory-works-1";

export const sampleDeckName = "Sample: How memory works";
