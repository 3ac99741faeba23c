/** One note in the browser: select box, first field, type, tags, who is editing it, and its fields and cards when open. */
import type { Note } from "@engram/sdk";
import { ChevronRight, PenLine } from "lucide-react";
import type { MouseEvent } from "react";
import { kindLabels } from "./browser-params.js";
import { NoteCards } from "./note-cards.js";
import { firstFieldText, type NoteTypeLookup, noteTypeOf } from "./plain-text.js";

export interface NoteRowProps {
  note: Note;
  noteTypes: NoteTypeLookup;
  editable: boolean;
  selected: boolean;
  expanded: boolean;
  active: boolean;
  editingBy: string | undefined;
  onSelect: (event: MouseEvent<HTMLInputElement>) => void;
  onToggle: () => void;
  onFocusRow: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function NoteRow(props: NoteRowProps) {
  const { note, editable, selected, expanded, active, editingBy } = props;
  const text = firstFieldText(note, props.noteTypes) || "(empty)";
  const noteType = noteTypeOf(note, props.noteTypes);
  const typeName = note.kind === "custom" ? (noteType?.name ?? "Custom") : kindLabels[note.kind];
  const detailsId = `note-${note.id}-cards`;
  return (
    <div className={`note-row${selected ? " selected" : ""}${expanded ? " expanded" : ""}`}>
      <div className="note-line">
        {editable ? (
          <input
            type="checkbox"
            className="note-check"
            checked={selected}
            aria-label={`Select ${text}`}
            // onClick, not onChange: the shift key picks a range.
            onClick={props.onSelect}
            onChange={() => undefined}
          />
        ) : null}
        <button
          type="button"
          className="note-toggle"
          data-note-toggle={note.id}
          aria-expanded={expanded}
          aria-controls={expanded ? detailsId : undefined}
          tabIndex={active ? 0 : -1}
          onClick={props.onToggle}
          onFocus={props.onFocusRow}
        >
          <ChevronRight aria-hidden="true" className="chevron" />
          <span className="note-text">{text}</span>
        </button>
        <span className="note-meta">
          {editingBy ? (
            <span className="editing-badge">
              <PenLine aria-hidden="true" /> {editingBy} is editing
            </span>
          ) : null}
          <span className="kind-badge">{typeName}</span>
          {note.tags.length > 0 ? (
            <span className="note-tags">
              <span className="visually-hidden">Tags: </span>
              {note.tags.map((tag) => (
                <span key={tag} className="tag">
                  {tag}
                </span>
              ))}
            </span>
          ) : null}
        </span>
      </div>
      {expanded ? (
        <div id={detailsId}>
          <NoteCards
            note={note}
            noteType={noteType}
            editable={editable}
            onEdit={props.onEdit}
            onDelete={props.onDelete}
          />
        </div>
      ) : null}
    </div>
  );
}
