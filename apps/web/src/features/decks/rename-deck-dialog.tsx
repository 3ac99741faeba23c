import type { MyDeck } from "@engram/sdk";
import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Dialog } from "../../ui/dialog.js";
import { useUpdateDeck } from "./use-decks.js";

const fields = ["name"] as const;

export function RenameDeckDialog({ deck, onClose }: { deck: MyDeck; onClose: () => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const update = useUpdateDeck();
  const errors = formErrors(update.error, fields);

  return (
    <Dialog title={`Rename “${deck.name}”`} onClose={onClose}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = textOf(new FormData(event.currentTarget), "name");
          update.mutate({ deckId: deck.id, patch: { name } }, { onSuccess: onClose });
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField
          name="name"
          label="Deck name"
          defaultValue={deck.name}
          autoComplete="off"
          required
          error={errors.fields.name}
        />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={update.isPending} pendingLabel="Saving…">
            Save name
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
