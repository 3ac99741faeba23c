/** The dialogs behind the bulk actions: tags to add or remove, the deck to move to, and confirming a delete. */
import type { MyDeck } from "@engram/sdk";
import { useRef, useState } from "react";
import { SubmitButton } from "../../forms/submit-button.js";
import { errorMessage, fieldErrors } from "../../lib/error-messages.js";
import { Dialog } from "../../ui/dialog.js";

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
export const notesCount = (count: number) => plural(count, "note");

interface Common {
  count: number;
  pending: boolean;
  error: unknown;
  onClose: () => void;
}

export function TagsDialog({
  mode,
  count,
  pending,
  error,
  onClose,
  onSubmit,
}: Common & { mode: "add" | "remove"; onSubmit: (tags: string[]) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A refused tag names the rule it broke (no spaces, at most 64 characters…).
  const shown = problem ?? (error ? (Object.values(fieldErrors(error))[0] ?? errorMessage(error)) : null);
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
          {error ? (
            <p role="alert" className="field-error">
              {errorMessage(error)}
            </p>
          ) : null}
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
        {error ? (
          <p role="alert" className="field-error">
            {errorMessage(error)}
          </p>
        ) : null}
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
