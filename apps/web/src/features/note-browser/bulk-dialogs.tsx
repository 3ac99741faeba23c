/** The dialogs behind the bulk actions: tags to add or remove, the deck to move to, and confirming a delete. */
import { EngramError, type MyDeck } from "@engram/sdk";
import { useRef, useState } from "react";
import { SubmitButton } from "../../forms/submit-button.js";
import { errorMessage, fieldErrors } from "../../lib/error-messages.js";
import { Dialog } from "../../ui/dialog.js";
import { notesCount } from "./notes-count.js";

interface Common {
  count: number;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  /** Loads the selected notes again (their versions too), keeping the selection, after a refusal because some changed. */
  onReload?: (() => void) | undefined;
}

/** How many of the notes the refusal found changed since they were loaded, or null for any other error. */
function changedCount(error: unknown): number | null {
  if (!(error instanceof EngramError) || error.code !== "note/conflict") return null;
  const notes = (error.detail as { notes?: unknown } | undefined)?.notes;
  return Array.isArray(notes) ? notes.length : null;
}

/** Why nothing changed; when others changed some of the notes, how many of how many, with the reload that lets a retry pass. */
function BulkProblem({
  error,
  count,
  onReload,
}: {
  error: unknown;
  count: number;
  onReload?: (() => void) | undefined;
}) {
  const changed = changedCount(error);
  if (changed === null) {
    return (
      <p role="alert" className="field-error">
        {errorMessage(error)}
      </p>
    );
  }
  return (
    <div role="alert" className="field-error">
      <p>
        {changed} of the {notesCount(count)} {changed === 1 ? "was" : "were"} changed by others since you loaded them —
        nothing was changed. Reload and try again.
      </p>
      {onReload ? (
        <button type="button" className="button secondary small" onClick={onReload}>
          Reload the notes
        </button>
      ) : null}
    </div>
  );
}

export function TagsDialog({
  mode,
  count,
  pending,
  error,
  onClose,
  onReload,
  onSubmit,
}: Common & { mode: "add" | "remove"; onSubmit: (tags: string[]) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A refused tag names the rule it broke (no spaces, at most 64 characters…).
  const stale = problem === null && changedCount(error) !== null;
  const shown = problem ?? (error && !stale ? (Object.values(fieldErrors(error))[0] ?? errorMessage(error)) : null);
  return (
    <Dialog
      title={mode === "add" ? `Add tags to ${notesCount(count)}` : `Remove tags from ${notesCount(count)}`}
      onClose={onClose}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const tags = (inputRef.current?.value ?? "").split(/[\s,]+/).filter(Boolean);
          if (tags.length === 0) {
            setProblem("Write at least one tag.");
            inputRef.current?.focus();
            return;
          }
          setProblem(null);
          onSubmit(tags);
        }}
      >
        <div className="field">
          <label htmlFor="bulk-tags">Tags</label>
          <input
            ref={inputRef}
            id="bulk-tags"
            autoComplete="off"
            aria-describedby="bulk-tags-hint"
            aria-invalid={shown ? true : undefined}
            autoFocus
          />
          <p id="bulk-tags-hint" className="field-hint">
            Separate tags with spaces or commas.
          </p>
          {shown ? (
            <p className="field-error" role="alert">
              {shown}
            </p>
          ) : null}
          {stale ? <BulkProblem error={error} count={count} onReload={onReload} /> : null}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={pending} pendingLabel="Saving…">
            {mode === "add" ? "Add tags" : "Remove tags"}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}

export function MoveDialog({
  count,
  pending,
  error,
  onClose,
  onReload,
  onSubmit,
  decks,
}: Common & { decks: MyDeck[]; onSubmit: (deckId: string) => void }) {
  const [target, setTarget] = useState(decks[0]?.id ?? "");
  return (
    <Dialog title={`Move ${notesCount(count)}`} onClose={onClose}>
      {decks.length === 0 ? (
        <>
          <p>You don't edit any other deck. Create one on the decks page first.</p>
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(target);
          }}
        >
          <div className="field">
            <label htmlFor="move-target">Move to deck</label>
            <select id="move-target" value={target} onChange={(event) => setTarget(event.target.value)}>
              {decks.map((deck) => (
                <option key={deck.id} value={deck.id}>
                  {deck.name}
                </option>
              ))}
            </select>
          </div>
          <p className="field-hint">Their cards and everyone's progress on them move too.</p>
          {error ? <BulkProblem error={error} count={count} onReload={onReload} /> : null}
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={onClose}>
              Cancel
            </button>
            <SubmitButton pending={pending} pendingLabel="Moving…">
              Move notes
            </SubmitButton>
          </div>
        </form>
      )}
    </Dialog>
  );
}

export function DeleteNotesDialog({
  count,
  label,
  pending,
  error,
  onClose,
  onReload,
  onConfirm,
}: Common & { label?: string; onConfirm: () => void }) {
  return (
    <Dialog title={label ? `Delete “${label}”?` : `Delete ${notesCount(count)}?`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <p>
          {count === 1 ? "The note and its cards are" : "The notes and their cards are"} deleted for every member of the
          deck, with everyone's progress on them. Owners and editors can bring them back from Recently deleted for 30
          days.
        </p>
        {error ? <BulkProblem error={error} count={count} onReload={onReload} /> : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Keep {count === 1 ? "note" : "notes"}
          </button>
          <SubmitButton pending={pending} pendingLabel="Deleting…" variant="danger">
            Delete {count === 1 ? "note" : "notes"}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
