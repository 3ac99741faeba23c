/**
 * Bulk actions over the selected notes. Each is one SDK call, all or nothing;
 * the outcome is announced through the page's live region.
 */
import { maxBulkNotes, type NoteVersion } from "@engram/sdk";
import { FolderInput, Pause, Play, Replace, Tag, TagsIcon, Trash2, X } from "lucide-react";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../lib/error-messages.js";
import { onDemand } from "../../lib/preloadable.js";
import { notesCount } from "./notes-count.js";
import { useDeckMutations, useEditableDecks } from "./use-deck.js";

type Open = "add-tags" | "remove-tags" | "move" | "delete" | "find-replace" | null;

// Each dialog loads with its first opening, and the dialog library with the first of them.
const FindReplaceDialog = onDemand(() =>
  import("../../find-replace/find-replace-dialog.js").then((m) => m.FindReplaceDialog),
);
const loadBulkDialogs = () => import("./bulk-dialogs.js");
const TagsDialog = onDemand(() => loadBulkDialogs().then((m) => m.TagsDialog));
const MoveDialog = onDemand(() => loadBulkDialogs().then((m) => m.MoveDialog));
const DeleteNotesDialog = onDemand(() => loadBulkDialogs().then((m) => m.DeleteNotesDialog));

/** A validation error names the rule that failed (a tag with a space…); other errors say what happened. */
function problemOf(error: unknown): string {
  return Object.values(fieldErrors(error))[0] ?? errorMessage(error);
}

export function BulkBar({
  deckId,
  selected,
  total,
  onSelectAll,
  selectingAll,
  onClear,
  onDone,
  onReload,
}: {
  deckId: string;
  selected: NoteVersion[];
  total: number;
  onSelectAll: () => void;
  selectingAll: boolean;
  onClear: () => void;
  /** A delete also names the notes it took, so they can be brought back. */
  onDone: (message: string, clear: boolean, deletedIds?: string[]) => void;
  /** Loads the selected notes' versions again, keeping the selection. */
  onReload: () => Promise<void>;
}) {
  const [open, setOpen] = useState<Open>(null);
  const mutations = useDeckMutations();
  const targets = useEditableDecks().filter((deck) => deck.id !== deckId);
  const count = selected.length;
  const close = () => setOpen(null);
  // After a refusal because others changed some notes: their new versions, then a fresh try from the same dialog.
  const reload = () => {
    void onReload().then(() => {
      for (const mutation of [mutations.addTags, mutations.removeTags, mutations.move, mutations.remove])
        mutation.reset();
      onDone(`Reloaded ${notesCount(count)}; try again.`, false);
    });
  };

  const suspend = (suspended: boolean) =>
    mutations.suspendNotes.mutate(
      { noteIds: selected.map((note) => note.id), suspended },
      {
        onSuccess: (changed) =>
          onDone(
            `${suspended ? "Suspended" : "Unsuspended"} ${changed === 1 ? "1 card" : `${changed} cards`} of ${notesCount(count)}.`,
            false,
          ),
        onError: (error) => onDone(`Nothing changed: ${problemOf(error)}`, false),
      },
    );

  return (
    <section className="bulk-bar" aria-label="Selected notes">
      <div className="bulk-summary">
        <strong>{notesCount(count)} selected</strong>
        {count < total && total <= maxBulkNotes ? (
          <button type="button" className="link-button" onClick={onSelectAll} disabled={selectingAll}>
            Select all {total} matching
          </button>
        ) : null}
        {count < total && total > maxBulkNotes ? (
          <span className="muted">Bulk changes take up to {maxBulkNotes} notes at a time.</span>
        ) : null}
        <button type="button" className="button secondary small" onClick={onClear}>
          <X aria-hidden="true" /> Clear selection
        </button>
      </div>
      <div className="bulk-actions">
        <button type="button" className="button secondary small" onClick={() => setOpen("add-tags")}>
          <Tag aria-hidden="true" /> Add tags
        </button>
        <button type="button" className="button secondary small" onClick={() => setOpen("remove-tags")}>
          <TagsIcon aria-hidden="true" /> Remove tags
        </button>
        <button type="button" className="button secondary small" onClick={() => setOpen("find-replace")}>
          <Replace aria-hidden="true" /> Find and replace
        </button>
        <button type="button" className="button secondary small" onClick={() => setOpen("move")}>
          <FolderInput aria-hidden="true" /> Move
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={mutations.suspendNotes.isPending}
          onClick={() => suspend(true)}
        >
          <Pause aria-hidden="true" /> Suspend
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={mutations.suspendNotes.isPending}
          onClick={() => suspend(false)}
        >
          <Play aria-hidden="true" /> Unsuspend
        </button>
        <button type="button" className="button danger-outline small" onClick={() => setOpen("delete")}>
          <Trash2 aria-hidden="true" /> Delete
        </button>
      </div>

      {open === "add-tags" || open === "remove-tags" ? (
        <TagsDialog
          mode={open === "add-tags" ? "add" : "remove"}
          count={count}
          pending={mutations.addTags.isPending || mutations.removeTags.isPending}
          error={open === "add-tags" ? mutations.addTags.error : mutations.removeTags.error}
          onClose={close}
          onReload={reload}
          onSubmit={(tags) => {
            const mutation = open === "add-tags" ? mutations.addTags : mutations.removeTags;
            mutation.mutate(
              { deckId, notes: selected, tags },
              {
                onSuccess: () => {
                  close();
                  onDone(
                    `${open === "add-tags" ? "Added" : "Removed"} ${tags.map((tag) => `“${tag}”`).join(", ")} ${open === "add-tags" ? "to" : "from"} ${notesCount(count)}.`,
                    false,
                  );
                },
              },
            );
          }}
        />
      ) : null}
      {open === "find-replace" ? (
        <FindReplaceDialog
          deckId={deckId}
          selected={selected.map((note) => note.id)}
          total={total}
          onSelectAll={onSelectAll}
          selectingAll={selectingAll}
          onClose={close}
          onDone={(message) => {
            close();
            onDone(message, false);
          }}
        />
      ) : null}
      {open === "move" ? (
        <MoveDialog
          count={count}
          decks={targets}
          pending={mutations.move.isPending}
          error={mutations.move.error}
          onClose={close}
          onReload={reload}
          onSubmit={(toDeckId) =>
            mutations.move.mutate(
              { fromDeckId: deckId, notes: selected, toDeckId },
              {
                onSuccess: (moved) => {
                  close();
                  const name = targets.find((deck) => deck.id === toDeckId)?.name ?? "the other deck";
                  onDone(`Moved ${notesCount(moved)} to ${name}.`, true);
                },
              },
            )
          }
        />
      ) : null}
      {open === "delete" ? (
        <DeleteNotesDialog
          count={count}
          pending={mutations.remove.isPending}
          error={mutations.remove.error}
          onClose={close}
          onReload={reload}
          onConfirm={() =>
            mutations.remove.mutate(
              { deckId, notes: selected },
              {
                onSuccess: () => {
                  close();
                  onDone(
                    `Deleted ${notesCount(count)}.`,
                    true,
                    selected.map((note) => note.id),
                  );
                },
              },
            )
          }
        />
      ) : null}
    </section>
  );
}
