/**
 * A field two people changed differently: both versions side by side, drawn
 * as a card draws them (sanitised, the deck's media shown), and the choice of
 * which to keep. The field's editor is hidden until a choice is made.
 */
import { useId } from "react";
import { CardView } from "../ui/card-view/card-view.js";

export type ConflictChoice = "mine" | "theirs" | "edit";

interface FieldConflictProps {
  deckId: string;
  label: string;
  mine: string;
  theirs: string;
  /** Who saved the other version. */
  author: string;
  /** Editing already: the editor shows below, starting from mine, and "Take theirs" replaces what it holds. */
  editing: boolean;
  onChoose: (choice: ConflictChoice) => void;
}

function Version({ deckId, title, html }: { deckId: string; title: string; html: string }) {
  return (
    <figure className="field-conflict-version">
      <figcaption>{title}</figcaption>
      {html ? (
        <CardView
          deckId={deckId}
          note={{ kind: "basic", fields: { front: html, back: "" } }}
          ordinal={1}
          revealed={false}
        />
      ) : (
        <p className="field-conflict-empty">(empty)</p>
      )}
    </figure>
  );
}

export function FieldConflict({ deckId, label, mine, theirs, author, editing, onChoose }: FieldConflictProps) {
  const headingId = useId();
  return (
    <section className="field-conflict" aria-labelledby={headingId}>
      <h3 id={headingId} className="field-conflict-heading">
        {label}: you and {author} both changed it
      </h3>
      <div className="field-conflict-versions">
        <Version deckId={deckId} title="Yours" html={mine} />
        <Version deckId={deckId} title="Theirs" html={theirs} />
      </div>
      <div className="field-conflict-actions">
        {editing ? null : (
          <button type="button" className="button secondary" onClick={() => onChoose("mine")}>
            Keep mine<span className="visually-hidden"> for {label}</span>
          </button>
        )}
        <button type="button" className="button secondary" onClick={() => onChoose("theirs")}>
          Take theirs<span className="visually-hidden"> for {label}</span>
        </button>
        {editing ? null : (
          <button type="button" className="button secondary" onClick={() => onChoose("edit")}>
            Edit<span className="visually-hidden"> {label}</span>
          </button>
        )}
      </div>
    </section>
  );
}
