/**
 * One note in the browser's table, as a row group: its row (select box, the
 * view's columns, who is editing it) and, when open, a row with its fields and cards.
 */
import type { ListedNote } from "@engram/sdk";
import { ChevronRight, PenLine } from "lucide-react";
import type { MouseEvent, Ref } from "react";
import { fieldText } from "../../lib/field-text.js";
import { PersonalSection } from "../../note-editor/personal-section.js";
import { kindLabels } from "./browser-params.js";
import type { BrowserColumn } from "./columns.js";
import { NoteCards } from "./note-cards.js";
import { fieldsOf, type NoteTypeLookup, noteTypeOf } from "./plain-text.js";

export interface NoteRowProps {
  note: ListedNote;
  columns: readonly BrowserColumn[];
  noteTypes: NoteTypeLookup;
  /** The row's place among all the notes the view lists, from 0. */
  index: number;
  editable: boolean;
  suggesting?: boolean;
  selected: boolean;
  expanded: boolean;
  active: boolean;
  editingBy: string | undefined;
  measureRef: Ref<HTMLTableSectionElement>;
  onSelect: (event: MouseEvent<HTMLInputElement>) => void;
  onToggle: () => void;
  onFocusRow: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });

/** A field column's text: the field as one line, or the note's sort field (kept by the database). */
function fieldCellText(note: ListedNote, column: BrowserColumn): string {
  if (column.field === undefined) return note.sort_field;
  const value = fieldsOf(note)[column.field];
  const text = fieldText(typeof value === "string" ? value : "");
  // An image occlusion note without a header reads as its image, as its sort field does.
  return text || (column.primary ? note.sort_field : "");
}

export function NoteRow(props: NoteRowProps) {
  const { note, columns, editable, selected, expanded, active, editingBy } = props;
  const noteType = noteTypeOf(note, props.noteTypes);
  const primary = columns.find((column) => column.primary);
  const text = (primary ? fieldCellText(note, primary) : note.sort_field) || "(empty)";
  const detailsId = `note-${note.id}-cards`;

  const cell = (column: BrowserColumn) => {
    switch (column.kind) {
      case "field": {
        if (column.primary) {
          return (
            <td key={column.key} className="note-primary">
              <button
                type="button"
                className="note-toggle"
                data-note-toggle={note.id}
                aria-expanded={expanded}
                aria-controls={expanded ? detailsId : undefined}
                tabIndex={active ? 0 : -1}
                title={text}
                onClick={props.onToggle}
                onFocus={props.onFocusRow}
              >
                <ChevronRight aria-hidden="true" className="chevron" />
                <span className="note-text">{text}</span>
              </button>
              {editingBy ? (
                <span className="editing-badge">
                  <PenLine aria-hidden="true" /> {editingBy} is editing
                </span>
              ) : null}
            </td>
          );
        }
        const value = fieldCellText(note, column);
        return (
          <td key={column.key} className="note-field-cell" title={value || undefined}>
            {value}
          </td>
        );
      }
      case "type":
        return (
          <td key={column.key}>
            <span className="kind-badge">
              {note.kind === "custom" ? (noteType?.name ?? "Custom") : kindLabels[note.kind]}
            </span>
          </td>
        );
      case "tags":
        return (
          <td key={column.key} title={[...note.tags, ...note.my_tags].join(" ") || undefined}>
            {note.tags.length + note.my_tags.length > 0 ? (
              <span className="note-tags">
                {note.tags.map((tag) => (
                  <span key={tag} className="tag">
                    {tag}
                  </span>
                ))}
                {/* The user's own tags (docs/product.md §3): outlined, and named as theirs for screen readers. */}
                {note.my_tags.map((tag) => (
                  <span key={`mine:${tag}`} className="tag tag-mine" title="Your own tag">
                    <span className="visually-hidden">My tag </span>
                    {tag}
                  </span>
                ))}
              </span>
            ) : null}
          </td>
        );
      case "cards":
        return (
          <td key={column.key} className="number">
            {note.card_count}
          </td>
        );
      case "modified":
        return (
          <td key={column.key}>
            <time dateTime={note.updated_at} title={dateTimeFormat.format(new Date(note.updated_at))}>
              {dateFormat.format(new Date(note.updated_at))}
            </time>
          </td>
        );
    }
  };

  return (
    <tbody ref={props.measureRef} data-index={props.index} className={`note-row${selected ? " selected" : ""}`}>
      <tr aria-rowindex={props.index + 2}>
        {editable ? (
          <td className="note-select">
            <input
              type="checkbox"
              className="note-check"
              checked={selected}
              aria-label={`Select ${text}`}
              // onClick, not onChange: the shift key picks a range.
              onClick={props.onSelect}
              onChange={() => undefined}
            />
          </td>
        ) : null}
        {columns.map(cell)}
      </tr>
      {expanded ? (
        <tr className="note-details">
          <td id={detailsId} colSpan={columns.length + (editable ? 1 : 0)}>
            <NoteCards
              note={note}
              noteType={noteType}
              editable={editable}
              suggesting={props.suggesting ?? false}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
            />
            {/* Those who cannot edit the note still keep their own layer on it; editors have it in the editor. */}
            {editable ? null : <PersonalSection deckId={note.deck_id} noteId={note.id} />}
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}
