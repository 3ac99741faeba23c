import type { MyDeck } from "@engram/sdk";
import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Dialog } from "../../ui/dialog.js";
import { useCreateDeck } from "./use-decks.js";

const fields = ["name"] as const;

/** A new deck under `parent`; it starts with the parent's members in their roles. */
export function AddSubdeckDialog({ parent, onClose }: { parent: MyDeck; onClose: () => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreateDeck();
  const errors = formErrors(create.error, fields);

  return (
    <Dialog title={`Add a subdeck to “${parent.name}”`} onClose={onClose}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = textOf(new FormData(event.currentTarget), "name");
          create.mutate({ name, parentId: parent.id }, { onSuccess: onClose });
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField name="name" label="Subdeck name" autoComplete="off" required error={errors.fields.name} />
        <p className="field-hint">
          Studying “{parent.name}” studies its subdecks too. Its members can use the subdeck.
        </p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={create.isPending} pendingLabel="Adding…">
            Add subdeck
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
