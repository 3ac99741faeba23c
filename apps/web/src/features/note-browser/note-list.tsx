/**
 * The deck's notes as a virtualised list: only the rows in view are in the
 * DOM, and the next page is fetched as the user nears the end, so a deck of
 * 10,000 notes scrolls as smoothly as one of ten.
 */
import type { Note } from "@engram/sdk";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type MouseEvent, useEffect, useRef } from "react";
import { NoteRow } from "./note-row.js";
import type { NoteTypeLookup } from "./plain-text.js";
import { shortcutFor } from "./shortcuts.js";

export interface NoteListProps {
  notes: Note[];
  /** The deck's note types by id, for custom notes' type names and fields. */
  noteTypes: NoteTypeLookup;
  total: number;
  hasMore: boolean;
  loadMore: () => void;
  editable: boolean;
  selected: ReadonlySet<string>;
  expanded: ReadonlySet<string>;
  activeIndex: number;
  editing: ReadonlyMap<string, string>;
  onActiveIndex: (index: number) => void;
  onSelect: (index: number, range: boolean) => void;
  onToggle: (noteId: string) => void;
  onEdit: (noteId: string) => void;
  onDelete: (note: Note) => void;
}

export function NoteList(props: NoteListProps) {
  const { notes, hasMore, loadMore, activeIndex } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = notes.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 52,
    overscan: 8,
    getItemKey: (index) => notes[index]?.id ?? "loading",
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && lastIndex >= notes.length - 1) loadMore();
  }, [hasMore, lastIndex, notes.length, loadMore]);

  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(index, notes.length - 1));
    props.onActiveIndex(target);
    virtualizer.scrollToIndex(target, { align: "auto" });
    // The row may only be rendered after the scroll; focus it on the next frame.
    requestAnimationFrame(() => {
      const id = notes[target]?.id;
      if (id) scrollRef.current?.querySelector<HTMLElement>(`[data-note-toggle="${id}"]`)?.focus();
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys inside an opened note's table and buttons keep their own meaning.
    if (!target.matches(".note-toggle, .note-check")) return;
    const action = shortcutFor(event, props.editable);
    if (action === "next" || action === "previous") {
      event.preventDefault();
      focusRow(activeIndex + (action === "next" ? 1 : -1));
    } else if (action === "open" && target.matches(".note-toggle")) {
      event.preventDefault();
      const note = notes[activeIndex];
      if (note) props.onToggle(note.id);
    } else if (action === "select") {
      event.preventDefault();
      props.onSelect(activeIndex, false);
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the rows' own buttons.
    <div
      ref={scrollRef}
      className="note-scroll"
      onKeyDown={onKeyDown}
      // A short list takes only its rows' height; a long one a screenful and scrolls.
      style={{ height: `min(${virtualizer.getTotalSize() + 2}px, max(24rem, 100vh - 22rem))` }}
    >
      <ul aria-label="Notes" className="note-list" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const note = notes[item.index];
          return (
            <li
              key={item.key}
              aria-setsize={props.total}
              aria-posinset={item.index + 1}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="note-item"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {note ? (
                <NoteRow
                  note={note}
                  noteTypes={props.noteTypes}
                  editable={props.editable}
                  selected={props.selected.has(note.id)}
                  expanded={props.expanded.has(note.id)}
                  active={item.index === activeIndex}
                  editingBy={props.editing.get(note.id)}
                  onSelect={(event: MouseEvent<HTMLInputElement>) => props.onSelect(item.index, event.shiftKey)}
                  onToggle={() => props.onToggle(note.id)}
                  onFocusRow={() => props.onActiveIndex(item.index)}
                  onEdit={() => props.onEdit(note.id)}
                  onDelete={() => props.onDelete(note)}
                />
              ) : (
                <p className="note-loading">Loading more notes…</p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
