/**
 * One note in the browser's table, as a row group: its row (select box, the
 * view's columns, who is editing it) and, when open, a row with its fields and cards.
 */
import type { BrowseRow } from "@engram/sdk";
import { ChevronRight, PenLine } from "lucide-react";
import type { MouseEvent, Ref } from "react";
import { fieldText } from "../../lib/field-text.js";
import { PersonalSection } from "../../note-editor/personal-section.js";
import { kindLabels } from "./browser-params.js";
import type { BrowserColumn } from "./columns.js";
import { NoteCards } from "./note-cards.js";
import { fieldsOf, type NoteTypeLookup, noteTypeOf } from "./plain-text.js";
import { exactTime, relativeTime } from "./relative-time.js";

export interface NoteRowProps {
  note: BrowseRow;
  /** The row's own key: its card in cards mode, else its note. */
  rowKey: string;
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

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

/** A date relative to now, the exact one as its title; a dash for none. */
function TimeCell({ value, className }: { value: string | null; className?: string }) {
  if (!value) return <td className={className}>—</td>;
  const date = new Date(value);
  return (
    <td className={className}>
      <time dateTime={value} title={exactTime(date)}>
        {relativeTime(date)}
      </time>
    </td>
  );
}

/** A number, right-aligned; a dash for none. */
const numberCell = (key: string, value: string | null) => (
  <td key={key} className="number">
    {value ?? "—"}
  </td>
);
const days = (value: number | null) => (value === null ? null : `${numberFormat.format(value)} d`);
const percent = (value: number | null) => (value === null ? null : percentFormat.format(value));
const count = (value: number | null) => (value === null ? null : numberFormat.format(value));

/** A field column's text: the field as one line, or the note's sort field (kept by the database). */
function fieldCellText(note: BrowseRow, column: BrowserColumn): string {
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
  const detailsId = `row-${props.rowKey}-cards`;

  const cell = (column: BrowserColumn) => {
    switch (column.kind) {
      case "field": {
        if (column.primary) {
          return (
            <td key={column.key} className="note-primary">
              <button
                type="button"
                className="note-toggle"
                data-row-toggle={props.index}
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
        return numberCell(column.key, count(note.card_count));
      case "card":
        return <td key={column.key}>{note.template ?? ""}</td>;
      case "deck":
        return (
          <td key={column.key} title={note.deck_name}>
            {note.deck_name}
          </td>
        );
      case "created":
        return <TimeCell key={column.key} value={note.created_at} />;
      case "modified":
        return <TimeCell key={column.key} value={note.updated_at} />;
      case "due":
        // Anki's way: a new card has no due date; a suspended one shows it in brackets.
        if (note.state === "new") return <td key={column.key}>New</td>;
        return <TimeCell key={column.key} value={note.due} className={note.suspended ? "suspended-due" : undefined} />;
      case "interval":
        return numberCell(column.key, days(note.interval));
      case "difficulty":
        return numberCell(column.key, percent(note.difficulty));
      case "stability":
        return numberCell(column.key, days(note.stability));
      case "retrievability":
        return numberCell(column.key, percent(note.retrievability));
      case "lapses":
        return numberCell(column.key, count(note.lapses));
      case "reviews":
        return numberCell(column.key, count(note.reviews));
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
