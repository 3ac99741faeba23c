import type { MyDeck } from "@engram/sdk";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { Dialog } from "../../ui/dialog.js";
import { useRemoveDeck } from "./use-decks.js";

export function DeleteDeckDialog({ deck, onClose }: { deck: MyDeck; onClose: () => void }) {
  const remove = useRemoveDeck();
  return (
    <Dialog title={`Delete “${deck.name}”?`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate(deck.id, { onSuccess: onClose });
        }}
      >
        <ErrorSummary errors={formErrors(remove.error, [])} />
        <p>Its notes, cards and every member's study progress are deleted for everyone. This cannot be undone.</p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Keep deck
          </button>
          <SubmitButton pending={remove.isPending} pendingLabel="Deleting…" variant="danger">
            Delete deck
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
