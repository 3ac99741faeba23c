/**
 * What an import leaves out, in words: the SDK and core report each reason as
 * a stable code (with a rule's own message after "invalid-…: "); each reads
 * after its count, as in "3 cards whose front would be empty".
 */
const reasons: Record<string, string> = {
  "image-occlusion": "image occlusion notes, which Engram doesn't have",
  "card-without-cloze": "cloze cards whose number is no longer in their note",
  "card-without-template": "cards of a template their note type no longer has",
  "empty-front": "cards whose front would be empty",
  "card-without-note": "cards whose note isn't in the file",
  "unknown-note-type": "notes whose note type isn't in the file",
  "note-without-cards": "notes without any cards",
  "review-without-card": "reviews of cards that aren't in the file",
  "review-without-answer": "history entries that weren't answers (rescheduled or reset by hand)",
  "review-cramming": "answers in filtered decks that left the schedule as it was (cramming)",
  "review-of-skipped-card": "reviews of cards that were left out",
  "missing-media": "images or sounds the notes use but the file doesn't hold",
  "unused-media": "images or sounds no note uses",
  "unsupported-media-type": "files that aren't images or sounds Engram can show",
  "media-too-large": "images or sounds over 10 MB",
  "svg-not-converted": "SVG pictures that couldn't be drawn as PNG",
  "media-not-copied": "images or sounds that couldn't be copied into their subdeck",
  "tags-over-limit": "tags beyond the 50 a note can have",
};

const prefixed: Record<string, string> = {
  "invalid-note": "notes Engram can't take",
  "invalid-row": "rows Engram can't take",
  "note-type-flattened": "notes imported as Basic notes, their note type breaking a rule",
};

export function skipReason(code: string): string {
  const known = reasons[code];
  if (known) return known;
  const colon = code.indexOf(": ");
  const prefix = colon > 0 ? prefixed[code.slice(0, colon)] : undefined;
  if (prefix) return `${prefix}: ${code.slice(colon + 2)}`;
  return `left out for another reason (${code})`;
}
