import type { MyDeck } from "@engram/sdk";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { Dialog } from "../../ui/dialog.js";
import { useLeaveDeck } from "./use-decks.js";

export function LeaveDeckDialog({ deck, onClose }: { deck: MyDeck; onClose: () => void }) {
  const leave = useLeaveDeck();
  return (
    <Dialog title={`Leave “${deck.name}”?`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          leave.mutate(deck.id, { onSuccess: onClose });
        }}
      >
        <ErrorSummary errors={formErrors(leave.error, [])} />
        <p>It leaves your list and stays for its other members. To come back, you need a new invite from its owner.</p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Stay
          </button>
          <SubmitButton pending={leave.isPending} pendingLabel="Leaving…" variant="danger">
            Leave deck
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
