import type { PublicDeck } from "@engram/sdk";

const count = new Intl.NumberFormat();
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

/** Who made a public deck, how big it is and how many people took a copy. */
export function DeckFacts({ deck }: { deck: PublicDeck }) {
  const facts = [
    `by ${deck.owner_name?.trim() || "an Engram user"}`,
    plural(deck.note_count, "note", "notes"),
    deck.clone_count === 0 ? "not copied yet" : `copied ${plural(deck.clone_count, "time", "times")}`,
  ];
  // One line of text that wraps between words, the dots travelling with what follows them.
  return <p className="deck-facts">{facts.join(" · ")}</p>;
}
