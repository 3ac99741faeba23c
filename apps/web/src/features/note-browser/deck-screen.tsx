/**
 * The deck screen once the deck is known: header with presence, the note
 * browser (filters in the URL, a virtualised list), bulk actions for people
 * who edit, and the shared editor dialog.
 */
import type { Deck, DeckRole, Note, NoteVersion } from "@engram/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { onDemand } from "../../lib/preloadable.js";
import { DeckChangesBanner } from "../../note-history/deck-changes-banner.js";
import { useEngramQueries } from "../../session/factories.js";
import { offersSuggestions } from "../../suggestion-form/may-suggest.js";
import { SuggestSlot, type SuggestTarget } from "../../suggestion-form/suggest-slot.js";
import { isTypingTarget } from "../../ui/keys.js";
import { usePageTitle } from "../../ui/page-title.js";
import { browseOptions, filterOptions, sortByColumn, sortState, useBrowserParams } from "./browser-params.js";
import { BulkBar } from "./bulk-bar.js";
import { browserColumns } from "./columns.js";
import { DeckHeader } from "./deck-header.js";
import { NoteEditorSlot } from "./note-editor-slot.js";
import { NoteFilters } from "./note-filters.js";
import { NoteList } from "./note-list.js";
import { firstFieldText } from "./plain-text.js";
import { shortcutFor, shortcuts } from "./shortcuts.js";
import { type Undoable, UndoDelete } from "./undo-delete.js";
import { canEdit, useBrowsePages, useDeckMutations, useDeckNoteTypes, useProfile } from "./use-deck.js";
import { useDeckRoom } from "./use-deck-room.js";
import { useSelection } from "./use-selection.js";
import { ViewControls } from "./view-controls.js";

const DeleteNotesDialog = onDemand(() => import("./bulk-dialogs.js").then((m) => m.DeleteNotesDialog));
const ShortcutsDialog = onDemand(() => import("../../ui/shortcuts-dialog.js").then((m) => m.ShortcutsDialog));

type Editor = { noteId?: string } | null;
const numberFormat = new Intl.NumberFormat();

export function DeckScreen({ deck, role }: { deck: Deck; role: DeckRole | null }) {
  usePageTitle(deck.name);
  const queries = useEngramQueries();
  const queryClient = useQueryClient();
  const editable = canEdit(role);
  const suggesting = !editable && offersSuggestions(deck, role);
  const [params, setParams] = useBrowserParams();
  const options = useMemo(() => browseOptions(params), [params]);
  const filter = useMemo(() => filterOptions(params), [params]);
  const pages = useBrowsePages(deck.id, options);
  const filtered = Boolean(filter.search || filter.tags || filter.kind || filter.noteTypeId);
  const cardsMode = params.mode === "cards";
  const noteTypes = useDeckNoteTypes(deck.id);
  const columns = useMemo(
    () =>
      browserColumns(
        { kind: params.kind, noteType: filter.noteTypeId ?? "", cols: params.cols, mode: params.mode },
        noteTypes.byId,
      ),
    [params.kind, filter.noteTypeId, params.cols, params.mode, noteTypes.byId],
  );
  const sort = sortState(params);
  // Rows wait for the note types too: they name custom notes' types and give a type's columns.
  const loadingRows = pages.isPending || noteTypes.isPending;
  // The deck's count of notes apart: the list's total counts cards in cards mode and stops at 10,000.
  const countAll = useQuery(queries.notes.list(deck.id, { limit: 1 }));
  const notes = useMemo(() => pages.data?.pages.flatMap((page) => page.rows) ?? [], [pages.data]);
  // Row by row, the note each row stands for: selection and bulk actions act on notes (a note's cards share its id).
  const noteIds = useMemo(() => notes.map((note) => note.id), [notes]);
  const total = pages.data?.pages[0]?.total ?? 0;
  const capped = pages.data?.pages[0]?.capped ?? false;
  const deckTotal = countAll.data?.total;

  const profile = useProfile();
  const room = useDeckRoom(deck.id, role !== null && profile.isSuccess, {
    displayName: profile.data?.display_name ?? undefined,
    avatarPath: profile.data?.avatar_path ?? undefined,
  });

  const selection = useSelection(noteIds);
  // The versions "select all" loaded, for notes not yet scrolled into the list.
  const [allVersions, setAllVersions] = useState<ReadonlyMap<string, number>>(() => new Map());
  const [selectingAll, setSelectingAll] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [activeIndex, setActiveIndex] = useState(0);
  const [editor, setEditor] = useState<Editor>(null);
  const [deleting, setDeleting] = useState<Note | null>(null);
  const [suggestion, setSuggestion] = useState<SuggestTarget | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [status, setStatus] = useState("");
  // The notes the last delete took, while its message shows: they can come back at once.
  const [undoable, setUndoable] = useState<Undoable | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const { remove } = useDeckMutations();

  // A new search or filter starts a new selection: the old one may hold notes no longer shown.
  const filterKey = JSON.stringify(filter);
  const clearSelection = selection.clear;
  useEffect(() => {
    void filterKey;
    clearSelection();
    setActiveIndex(0);
  }, [filterKey, clearSelection]);
  // Rows are keyed by card in cards mode: opened rows do not carry over.
  useEffect(() => {
    void params.mode;
    setExpanded(new Set());
  }, [params.mode]);

  // Made a viewer while here: the editor and a selection for bulk edits close with the rights they needed.
  useEffect(() => {
    if (editable) return;
    setEditor(null);
    setDeleting(null);
    clearSelection();
  }, [editable, clearSelection]);

  const openEditor = useCallback(
    (noteId?: string) => {
      setEditor(noteId ? { noteId } : {});
      if (noteId) room.startEditing(noteId);
    },
    [room.startEditing],
  );
  const closeEditor = () => {
    if (editor?.noteId) room.stopEditing();
    setEditor(null);
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target)) return;
      const action = shortcutFor(event, editable);
      if (action === "search") {
        event.preventDefault();
        searchRef.current?.focus();
      } else if (action === "add") {
        event.preventDefault();
        openEditor();
      } else if (action === "help") {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [editable, openEditor]);

  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const { ids, notes: matching } = await queryClient.fetchQuery(queries.notes.ids(deck.id, filter));
      setAllVersions(new Map(matching.map((note) => [note.id, note.version])));
      selection.replace(ids);
      setStatus(`Selected all ${numberFormat.format(ids.length)} matching notes.`);
    } catch (error) {
      setStatus(errorMessage(error));
    } finally {
      setSelectingAll(false);
    }
  };

  // After a bulk action refused because others changed some notes: every selected note's version afresh, the selection kept.
  const reloadVersions = async () => {
    const refetched = pages.refetch();
    if (allVersions.size > 0) {
      const { notes: matching } = await queryClient.fetchQuery({ ...queries.notes.ids(deck.id, filter), staleTime: 0 });
      setAllVersions(new Map(matching.map((note) => [note.id, note.version])));
    }
    await refetched;
  };

  const toggleExpanded = useCallback((key: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);

  const loadMore = useCallback(() => {
    if (!pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [pages.isFetchingNextPage, pages.fetchNextPage]);

  // Bulk actions state the version each note had when it was loaded; the list's, kept current, comes first.
  // A selected note the list no longer holds (moved or deleted meanwhile) has none and is left out.
  const listed = new Map(notes.map((note) => [note.id, note.version]));
  const selected: NoteVersion[] = [...selection.selected].flatMap((id) => {
    const version = listed.get(id) ?? allVersions.get(id);
    return version === undefined ? [] : [{ id, version }];
  });
  return (
    <div className="page deck-page">
      <DeckHeader
        deck={deck}
        role={role}
        noteCount={deckTotal}
        others={room.others}
        onAdd={editable ? () => openEditor() : undefined}
        onSuggest={suggesting ? () => setSuggestion({ action: "create" }) : undefined}
        onHelp={() => setHelpOpen(true)}
      />
      {role ? <DeckChangesBanner deckId={deck.id} /> : null}

      <section aria-labelledby="notes-heading" className="browser">
        <h2 id="notes-heading" className="visually-hidden">
          Notes
        </h2>
        <NoteFilters params={params} noteTypes={noteTypes.list} onChange={setParams} searchRef={searchRef} />
        <div className="list-bar">
          <p className="list-summary" aria-live="polite">
            {pages.isPending
              ? cardsMode
                ? "Loading cards…"
                : "Loading notes…"
              : `${numberFormat.format(total)}${capped ? "+" : ""} ${
                  cardsMode ? (total === 1 ? "card" : "cards") : total === 1 ? "note" : "notes"
                }${filtered ? " match" : ""}`}
          </p>
          <ViewControls params={params} onChange={(patch) => setParams(patch)} />
        </div>
        {editable && selection.selected.size > 0 ? (
          <BulkBar
            deckId={deck.id}
            selected={selected}
            total={total}
            selectingAll={selectingAll}
            onSelectAll={selectAll}
            onClear={selection.clear}
            onDone={(message, clear, deletedIds) => {
              setStatus(message);
              setUndoable(deletedIds ? { message, noteIds: deletedIds } : null);
              if (clear) selection.clear();
            }}
            onReload={reloadVersions}
          />
        ) : null}
        <p role="status" className="bulk-status">
          {status}
        </p>
        {editable && undoable && undoable.message === status ? (
          <UndoDelete deckId={deck.id} noteIds={undoable.noteIds} onDone={setStatus} />
        ) : null}

        {pages.isError ? (
          <div role="alert" className="notice">
            <p>{errorMessage(pages.error)}</p>
            <button type="button" className="button secondary" onClick={() => pages.refetch()}>
              Try again
            </button>
          </div>
        ) : loadingRows ? null : notes.length === 0 ? (
          <p className="empty">
            {filtered
              ? "No notes match. Try other words or clear the filters."
              : editable
                ? "No notes yet. Add the first one with “Add note” (or press A)."
                : "This deck has no notes yet."}
          </p>
        ) : (
          <NoteList
            notes={notes}
            mode={params.mode}
            columns={columns}
            sort={sort}
            onSort={(column) => setParams(sortByColumn(sort, column))}
            noteTypes={noteTypes.byId}
            total={total}
            hasMore={pages.hasNextPage}
            loadMore={loadMore}
            editable={editable}
            suggesting={suggesting}
            selected={selection.selected}
            expanded={expanded}
            activeIndex={Math.min(activeIndex, Math.max(0, notes.length - 1))}
            editing={room.editing}
            onActiveIndex={setActiveIndex}
            onSelect={selection.toggle}
            onToggle={toggleExpanded}
            onEdit={(noteId: string) => {
              const note = notes.find((listed) => listed.id === noteId);
              if (!suggesting) openEditor(noteId);
              else if (note) setSuggestion({ action: "edit", note });
            }}
            onDelete={(note: Note) => (suggesting ? setSuggestion({ action: "delete", note }) : setDeleting(note))}
          />
        )}
      </section>

      {editor ? (
        <NoteEditorSlot
          deckId={deck.id}
          {...(editor.noteId ? { noteId: editor.noteId } : {})}
          onClose={closeEditor}
          onSaved={(_id, notice) =>
            setStatus(editor.noteId ? ["Note saved.", notice].filter(Boolean).join(" ") : "Note added.")
          }
        />
      ) : null}
      {suggestion ? (
        <SuggestSlot deckId={deck.id} target={suggestion} onClose={() => setSuggestion(null)} onSent={setStatus} />
      ) : null}
      {deleting ? (
        <DeleteNotesDialog
          count={1}
          label={firstFieldText(deleting, noteTypes.byId)}
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(
              { deckId: deck.id, notes: [{ id: deleting.id, version: listed.get(deleting.id) ?? deleting.version }] },
              {
                onSuccess: () => {
                  const message = `Deleted “${firstFieldText(deleting, noteTypes.byId)}”.`;
                  setStatus(message);
                  setUndoable({ message, noteIds: [deleting.id] });
                  setDeleting(null);
                },
              },
            )
          }
        />
      ) : null}
      {helpOpen ? (
        <ShortcutsDialog
          shortcuts={shortcuts.filter((shortcut) => editable || !shortcut.editorsOnly)}
          caption="Keys and what they do on this screen"
          onClose={() => setHelpOpen(false)}
        />
      ) : null}
    </div>
  );
}
