/**
 * The deck's note types: each with its fields and how many cards it can make.
 * Owners and editors add one and open one to change or delete it; viewers
 * open it to read it.
 */
import type { MyDeck } from "@engram/sdk";
import { useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { NewNoteTypeDialog } from "./note-type-create.js";
import { NoteTypeEditor } from "./note-type-editor.js";
import { type DeckNoteType, useNotesOfType, useNoteTypes } from "./use-note-types.js";
import "./note-types.css";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function NoteTypesSection({ deck }: { deck: MyDeck }) {
  const types = useNoteTypes(deck.id);
  const [openId, setOpenId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const canEdit = deck.role === "owner" || deck.role === "editor";
  const open = types.data?.find((type) => type.id === openId);

  return (
    <section className="settings-section" aria-labelledby="note-types-heading">
      <h2 id="note-types-heading">Note types</h2>
      <p className="settings-intro">
        A note type names a note's fields and lays out the cards made from them, as in Anki. Notes of the built-in types
        (Basic, Basic and reversed, Cloze) need none here; importing an Anki deck brings its own.
      </p>
      {canEdit ? (
        <button type="button" className="button secondary" onClick={() => setAdding(true)}>
          New note type
        </button>
      ) : null}
      {types.isPending ? (
        <p className="settings-muted">Loading note types…</p>
      ) : types.isError ? (
        <p role="alert">{errorMessage(types.error)}</p>
      ) : types.data.length === 0 ? (
        <p className="settings-muted">This deck has no note types of its own.</p>
      ) : (
        <ul aria-label="Note types" className="note-type-list">
          {types.data.map((type) => (
            <li key={type.id} className="note-type-item">
              <div className="note-type-summary">
                <span className="note-type-name">{type.name}</span>
                <span className="settings-muted">
                  {count(type.fields.length, "field", "fields")}: {type.fields.join(", ")}
                </span>
                <span className="settings-muted">
                  {type.kind === "cloze"
                    ? "Cloze: a card per cloze number"
                    : count(type.templates.length, "card template", "card templates")}
                </span>
              </div>
              <button type="button" className="button secondary small" onClick={() => setOpenId(type.id)}>
                {canEdit ? "Edit" : "View"}
                <span className="visually-hidden"> {type.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <NewNoteTypeDialog
          deckId={deck.id}
          types={types.data ?? []}
          onClose={() => setAdding(false)}
          onCreated={(type) => {
            setAdding(false);
            setOpenId(type.id);
          }}
        />
      ) : null}
      {open ? (
        <OpenNoteType
          // A save elsewhere does not replace what is being typed; reopening starts from what is stored.
          key={open.id}
          deckId={deck.id}
          stored={open}
          readOnly={!canEdit}
          onClose={() => setOpenId(null)}
        />
      ) : null}
    </section>
  );
}

function OpenNoteType(props: { deckId: string; stored: DeckNoteType; readOnly: boolean; onClose: () => void }) {
  const notes = useNotesOfType(props.deckId, props.stored.id);
  return <NoteTypeEditor {...props} noteCount={notes.count} sampleNote={notes.sample} />;
}
