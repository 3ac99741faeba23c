/**
 * One note drawn through a note type as it is being edited: the card of the
 * chosen template, both sides, with the type's CSS, as the study screen shows it.
 */
import { cardOrdinals, type NoteType, renderCard } from "@engram/core";
import { useId, useMemo, useState } from "react";
import { CardView } from "../../ui/card-view/card-view.js";

export function NoteTypePreview({
  deckId,
  noteType,
  fields,
}: {
  deckId: string;
  noteType: NoteType;
  fields: Record<string, string>;
}) {
  const headingId = useId();
  const selectId = useId();
  const [chosen, setChosen] = useState(1);
  const note = useMemo(() => ({ kind: "custom" as const, fields, noteType }), [fields, noteType]);
  const cards = useMemo(() => {
    try {
      return cardOrdinals(note);
    } catch {
      return [];
    }
  }, [note]);
  // A cloze type has one template and a card per cloze number; a standard type one card per template.
  const ordinal = noteType.kind === "cloze" ? (cards[0] ?? 1) : Math.min(chosen, noteType.templates.length);
  const problem = useMemo(() => {
    if (!cards.includes(ordinal)) {
      return noteType.kind === "cloze"
        ? "This note has no cloze deletion for the template to show."
        : "This template makes no card for this note: its front shows none of the note's filled fields.";
    }
    try {
      renderCard(note, ordinal);
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : "This template cannot be drawn.";
    }
  }, [cards, note, noteType.kind, ordinal]);

  return (
    <section className="note-type-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>Preview</h3>
      {noteType.kind === "standard" && noteType.templates.length > 1 ? (
        <div className="field">
          <label htmlFor={selectId}>Card</label>
          <select id={selectId} value={ordinal} onChange={(event) => setChosen(Number(event.target.value))}>
            {noteType.templates.map((template, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a template's place is its card ordinal.
              <option key={index} value={index + 1}>
                {template.name || `Card ${index + 1}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {problem ? (
        <p className="settings-muted">{problem}</p>
      ) : (
        <div className="note-type-preview-sides">
          {(["front", "back"] as const).map((side) => (
            <figure key={side} className="note-type-preview-side">
              <figcaption className="note-type-preview-label">{side === "front" ? "Front" : "Back"}</figcaption>
              <CardView deckId={deckId} note={note} ordinal={ordinal} revealed={side === "back"} css={noteType.css} />
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}
