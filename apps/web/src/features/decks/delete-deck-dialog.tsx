import type { MyDeck } from "@engram/sdk";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { Dialog } from "../../ui/dialog.js";
import { useRemoveDeck } from "./use-decks.js";

export function DeleteDeckDialog({
  deck,
  subdecks = 0,
  onClose,
}: {
  deck: MyDeck;
  /** How many decks are below it: they go with it. */
  subdecks?: number;
  onClose: () => void;
}) {
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
        {subdecks > 0 ? (
          <p>Its {subdecks === 1 ? "subdeck is" : `${subdecks} subdecks are`} deleted with it, as in Anki.</p>
        ) : null}
        <p>
          {subdecks > 0 ? "Their" : "Its"} notes, cards and every member's study progress are deleted for everyone. This
          cannot be undone.
        </p>
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
