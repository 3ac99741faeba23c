/**
 * Every card the note will make, front and back apart, drawn by the study screen's
 * own CardView (a custom note's with its note type's CSS), each named as its
 * template is. It follows the fields a moment after typing stops.
 */
import { cardOrdinals, type Note } from "@engram/core";
import { useEffect, useId, useMemo, useState } from "react";
import { CardView } from "../ui/card-view/card-view.js";
import { describeKeys, noteEditorShortcuts } from "./shortcuts.js";

const previewDelayMs = 200;

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

function cardName(note: Note, ordinal: number, count: number): string {
  if (note.kind === "custom") {
    // A cloze type's one template makes a card per cloze number; a standard type's each template its own card.
    if (note.noteType.kind === "cloze")
      return `${note.noteType.templates[0]?.name || "Cloze"} ${ordinal} (c${ordinal})`;
    return note.noteType.templates[ordinal - 1]?.name || `Card ${ordinal}`;
  }
  if (note.kind === "cloze") return `Card ${ordinal} (c${ordinal})`;
  if (note.kind === "basic_reversed") return ordinal === 1 ? "Card 1: front → back" : "Card 2: back → front";
  return count === 1 ? "Card 1" : `Card ${ordinal}`;
}

export function CardPreview({ deckId, note }: { deckId: string; note: Note }) {
  // Keyed on the content: re-renders that change nothing (an error shown) do not restart the wait.
  const shownKey = useDebounced(JSON.stringify(note), previewDelayMs);
  const shown = useMemo(() => JSON.parse(shownKey) as Note, [shownKey]);
  const ordinals = cardOrdinals(shown);
  const headingId = useId();
  return (
    <section className="card-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Preview{" "}
        <span className="card-preview-count">{ordinals.length === 1 ? "1 card" : `${ordinals.length} cards`}</span>
      </h3>
      {ordinals.length === 0 ? (
        <p className="empty">
          {shown.kind === "cloze" || (shown.kind === "custom" && shown.noteType.kind === "cloze")
            ? `No cards yet: select words in ${shown.kind === "cloze" ? "Text" : "a field"} and press ${describeKeys(noteEditorShortcuts.cloze.keys)} to make a cloze deletion.`
            : "No cards yet."}
        </p>
      ) : (
        <ol className="card-preview-list">
          {ordinals.map((ordinal) => (
            <li key={ordinal} className="card-preview-item" aria-label={cardName(shown, ordinal, ordinals.length)}>
              <p className="card-preview-name">{cardName(shown, ordinal, ordinals.length)}</p>
              {(["front", "back"] as const).map((side) => (
                <figure key={side} className="card-preview-side">
                  <figcaption className="card-preview-side-name">{side === "front" ? "Front" : "Back"}</figcaption>
                  <CardView
                    deckId={deckId}
                    note={shown}
                    ordinal={ordinal}
                    revealed={side === "back"}
                    {...(shown.kind === "custom" ? { css: shown.noteType.css } : {})}
                  />
                </figure>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
