/**
 * The deck's notes (or cards) as a virtualised table: only the rows in view
 * are in the DOM (spacer rows stand for the rest), and the next page is
 * fetched as the user nears the end, so a deck of 10,000 notes scrolls as
 * smoothly as one of ten. Each row is a row group, so an opened note's cards
 * sit under its row.
 */
import type { BrowseRow, Note } from "@engram/sdk";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type KeyboardEvent, type MouseEvent, useEffect, useRef } from "react";
import type { SortState } from "./browser-params.js";
import type { BrowserColumn } from "./columns.js";
import { NoteRow } from "./note-row.js";
import type { NoteTypeLookup } from "./plain-text.js";
import { shortcutFor } from "./shortcuts.js";

export interface NoteListProps {
  notes: BrowseRow[];
  /** Notes or cards: a row per note, or per card (its note's actions act on the note). */
  mode: "notes" | "cards";
  columns: readonly BrowserColumn[];
  /** The column and direction the list is in, shown on its header. */
  sort: SortState;
  onSort: (column: string) => void;
  /** The deck's note types by id, for custom notes' type names and fields. */
  noteTypes: NoteTypeLookup;
  total: number;
  hasMore: boolean;
  loadMore: () => void;
  editable: boolean;
  /** Edit and delete become suggestions (viewers of a deck that takes them). */
  suggesting?: boolean;
  selected: ReadonlySet<string>;
  /** The rows opened, by row key (rowKey). */
  expanded: ReadonlySet<string>;
  activeIndex: number;
  editing: ReadonlyMap<string, string>;
  onActiveIndex: (index: number) => void;
  onSelect: (index: number, range: boolean) => void;
  onToggle: (rowKey: string) => void;
  onEdit: (noteId: string) => void;
  onDelete: (note: Note) => void;
}

const ariaSort = { asc: "ascending", desc: "descending" } as const;

/** A row's own key: its card in cards mode, else its note. */
export const rowKey = (row: BrowseRow) => row.card_id ?? row.id;
/** The header row's height in pixels, as deck.css draws it. */
const headerHeight = 40;

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: BrowserColumn;
  sort: SortState;
  onSort: (key: string) => void;
}) {
  const sorted = column.sort !== undefined && sort.column === column.sort ? sort.dir : undefined;
  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <th
      scope="col"
      className={`col-${column.kind}${column.primary ? " col-primary" : ""}`}
      aria-sort={sorted ? ariaSort[sorted] : undefined}
    >
      {column.sort === undefined ? (
        column.label
      ) : (
        <button type="button" className="sort-button" onClick={() => column.sort && onSort(column.sort)}>
          {column.label}
          <Icon aria-hidden="true" className={sorted ? "sort-icon sorted" : "sort-icon"} />
        </button>
      )}
    </th>
  );
}

export function NoteList(props: NoteListProps) {
  const { notes, columns, hasMore, loadMore, activeIndex, editable } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = notes.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 45,
    // The sticky header sits above the first row in the scrolled box.
    paddingStart: headerHeight,
    scrollPaddingStart: headerHeight,
    overscan: 8,
    getItemKey: (index) => {
      const row = notes[index];
      return row ? rowKey(row) : "loading";
    },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const before = (items[0]?.start ?? headerHeight) - headerHeight;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const span = columns.length + (editable ? 1 : 0);

  useEffect(() => {
    if (hasMore && lastIndex >= notes.length - 1) loadMore();
  }, [hasMore, lastIndex, notes.length, loadMore]);

  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(index, notes.length - 1));
    props.onActiveIndex(target);
    virtualizer.scrollToIndex(target, { align: "auto" });
    // The row may only be rendered after the scroll; focus it on the next frame.
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-row-toggle="${target}"]`)?.focus();
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys inside an opened note's table, the headers and buttons keep their own meaning.
    if (!target.matches(".note-toggle, .note-check")) return;
    const action = shortcutFor(event, editable);
    if (action === "next" || action === "previous") {
      event.preventDefault();
      focusRow(activeIndex + (action === "next" ? 1 : -1));
    } else if (action === "open" && target.matches(".note-toggle")) {
      event.preventDefault();
      const note = notes[activeIndex];
      if (note) props.onToggle(rowKey(note));
    } else if (action === "select") {
      event.preventDefault();
      props.onSelect(activeIndex, false);
    }
  };

  const spacer = (height: number, key: string) =>
    height > 0 ? (
      <tbody key={key} aria-hidden="true" className="note-spacer">
        <tr>
          <td colSpan={span} style={{ height }} />
        </tr>
      </tbody>
    ) : null;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the rows' own buttons.
    <div
      ref={scrollRef}
      className="note-scroll"
      onKeyDown={onKeyDown}
      // A short list takes only its rows' height; a long one a screenful and scrolls.
      style={{ height: `min(${virtualizer.getTotalSize() + 2}px, max(24rem, 100vh - 22rem))` }}
    >
      <table
        aria-label={props.mode === "cards" ? "Cards" : "Notes"}
        aria-rowcount={props.total + 1}
        className={`note-table columns-${columns.length}`}
      >
        <thead>
          <tr aria-rowindex={1}>
            {editable ? (
              <th scope="col" className="note-select">
                <span className="visually-hidden">Selected</span>
              </th>
            ) : null}
            {columns.map((column) => (
              <SortHeader key={column.key} column={column} sort={props.sort} onSort={props.onSort} />
            ))}
          </tr>
        </thead>
        {spacer(before, "before")}
        {items.map((item) => {
          const note = notes[item.index];
          if (!note) {
            return (
              <tbody key={item.key} ref={virtualizer.measureElement} data-index={item.index}>
                <tr>
                  <td colSpan={span} className="note-loading">
                    {props.mode === "cards" ? "Loading more cards…" : "Loading more notes…"}
                  </td>
                </tr>
              </tbody>
            );
          }
          return (
            <NoteRow
              key={item.key}
              note={note}
              rowKey={rowKey(note)}
              columns={columns}
              index={item.index}
              measureRef={virtualizer.measureElement}
              noteTypes={props.noteTypes}
              editable={editable}
              suggesting={props.suggesting ?? false}
              selected={props.selected.has(note.id)}
              expanded={props.expanded.has(rowKey(note))}
              active={item.index === activeIndex}
              editingBy={props.editing.get(note.id)}
              onSelect={(event: MouseEvent<HTMLInputElement>) => props.onSelect(item.index, event.shiftKey)}
              onToggle={() => props.onToggle(rowKey(note))}
              onFocusRow={() => props.onActiveIndex(item.index)}
              onEdit={() => props.onEdit(note.id)}
              onDelete={() => props.onDelete(note)}
            />
          );
        })}
        {spacer(after, "after")}
      </table>
    </div>
  );
}
