/**
 * `/decks/:deckId/deleted`: the deck's notes deleted in the last 30 days,
 * newest first, for its members; owners and editors restore them one by one
 * or a selection at once, with their cards and everyone's schedules
 * (docs/product.md §3, "Recently deleted").
 */
import { type DeckRole, type DeletedNote, deletedNoteDays } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ArrowLeft, RotateCcw } from "lucide-react";
import { useState } from "react";
import { errorMessage, restoreErrorMessage } from "../../lib/error-messages.js";
import { Link, useParams } from "../../lib/navigation.js";
import { kindLabels } from "../../note-editor/note-draft.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import "./deleted-notes.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const notesCount = (count: number) => `${count} ${count === 1 ? "note" : "notes"}`;

/** The deck's name and the user's role in it; null for someone who is not a member. */
function useDeckFacts(deckId: string) {
  const queries = useEngramQueries();
  const decks = useQuery(queries.decks.list());
  const deck = decks.data?.find((mine) => mine.id === deckId);
  return { name: deck?.name, role: (deck?.role ?? null) as DeckRole | null };
}

/** A custom note's type by name while the type exists, else its kind. */
function useKindLabel(deckId: string) {
  const types = useQuery(useEngramQueries().noteTypes.usable(deckId));
  return (note: DeletedNote) =>
    (note.noteTypeId ? types.data?.find((type) => type.id === note.noteTypeId)?.name : undefined) ??
    kindLabels[note.kind];
}

function DeletedRow({
  note,
  kind,
  selected,
  onSelect,
  onRestore,
  restoring,
}: {
  note: DeletedNote;
  kind: string;
  /** Absent for viewers, who cannot restore. */
  selected: boolean | undefined;
  onSelect: () => void;
  onRestore: (() => void) | undefined;
  restoring: boolean;
}) {
  const title = note.sortField || "(empty note)";
  const who = note.deletedBy?.name || (note.deletedBy ? "A member" : "A former member");
  return (
    <li className="deleted-note">
      {selected !== undefined ? (
        <input
          type="checkbox"
          className="deleted-note-select"
          checked={selected}
          onChange={onSelect}
          aria-label={`Select “${title}”`}
        />
      ) : null}
      <div className="deleted-note-text">
        <h2 className="deleted-note-title">{title}</h2>
        <p className="deleted-note-facts">
          <span>{kind}</span>
          <span>
            {note.cardCount} {note.cardCount === 1 ? "card" : "cards"}
          </span>
          <span>
            Deleted by {who}, <time dateTime={note.deletedAt}>{dateFormat.format(new Date(note.deletedAt))}</time>
          </span>
          <span>
            {note.daysLeft} {note.daysLeft === 1 ? "day" : "days"} left
          </span>
        </p>
      </div>
      {onRestore ? (
        <button
          type="button"
          className="button secondary small"
          onClick={onRestore}
          disabled={restoring}
          aria-label={`Restore “${title}”`}
        >
          <RotateCcw aria-hidden="true" /> Restore
        </button>
      ) : null}
    </li>
  );
}

export function DeletedNotesPage() {
  const { deckId = "" } = useParams();
  const facts = useDeckFacts(deckId);
  usePageTitle(facts.name ? `Recently deleted in ${facts.name}` : "Recently deleted");
  const list = useQuery(useEngramQueries().deletedNotes.deck(deckId));
  const restore = useMutation(useEngramMutations().deletedNotes.restore());
  const kindOf = useKindLabel(deckId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [status, setStatus] = useState("");
  const canRestore = facts.role === "owner" || facts.role === "editor";
  const notes = list.data ?? [];
  // A selected note that is no longer listed (restored elsewhere, or its 30 days over) is left out.
  const chosen = notes.filter((note) => selected.has(note.noteId)).map((note) => note.noteId);

  const restoreNotes = (noteIds: string[]) => {
    setStatus("");
    restore.mutate(
      { deckId, noteIds },
      {
        onSuccess: (count) => {
          setSelected((current) => new Set([...current].filter((id) => !noteIds.includes(id))));
          setStatus(
            count === 0
              ? "These notes were already restored."
              : `Restored ${notesCount(count)}. They are back in the deck.`,
          );
        },
      },
    );
  };
  const toggle = (noteId: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(noteId)) next.add(noteId);
      return next;
    });

  return (
    <div className="page deleted-notes-page">
      <Link to={`/decks/${deckId}`} className="back-link">
        <ArrowLeft aria-hidden="true" /> Back to {facts.name ?? "the deck"}
      </Link>
      <h1>Recently deleted{facts.name ? ` in ${facts.name}` : ""}</h1>
      <p className="deleted-notes-intro">
        Deleted notes are kept for {deletedNoteDays} days with their cards and every member's progress.{" "}
        {canRestore
          ? "Restoring one brings it back as it was, due when it was due."
          : "The deck's owner and editors can restore them."}
      </p>
      {canRestore && notes.length > 0 ? (
        <div className="deleted-notes-bar">
          <label className="deleted-notes-all">
            <input
              type="checkbox"
              checked={chosen.length === notes.length}
              onChange={() =>
                setSelected(chosen.length === notes.length ? new Set() : new Set(notes.map((note) => note.noteId)))
              }
            />{" "}
            Select all
          </label>
          <button
            type="button"
            className="button primary small"
            disabled={chosen.length === 0 || restore.isPending}
            onClick={() => restoreNotes(chosen)}
          >
            <RotateCcw aria-hidden="true" />{" "}
            {restore.isPending ? "Restoring…" : `Restore selected${chosen.length > 0 ? ` (${chosen.length})` : ""}`}
          </button>
        </div>
      ) : null}
      <p role="status" className="deleted-notes-status">
        {status}
      </p>
      {restore.isError ? (
        <p role="alert" className="error-summary">
          {restoreErrorMessage(restore.error)}
        </p>
      ) : null}
      {list.isPending ? (
        <Loading label="Loading deleted notes…" />
      ) : list.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(list.error)}</p>
          <button type="button" className="button secondary" onClick={() => list.refetch()}>
            Try again
          </button>
        </div>
      ) : notes.length === 0 ? (
        <p className="empty">No notes were deleted in the last {deletedNoteDays} days.</p>
      ) : (
        <ul className="deleted-notes-list" aria-label="Deleted notes, newest first">
          {notes.map((note) => (
            <DeletedRow
              key={note.noteId}
              note={note}
              kind={kindOf(note)}
              selected={canRestore ? selected.has(note.noteId) : undefined}
              onSelect={() => toggle(note.noteId)}
              onRestore={canRestore ? () => restoreNotes([note.noteId]) : undefined}
              restoring={restore.isPending}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
