import { type ReactNode, useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Dialog } from "../../ui/dialog.js";

const fields = ["name"] as const;

/** A dialog asking for one deck name: adding a subdeck and renaming a deck both use it. */
export function DeckNameDialog({
  title,
  label,
  defaultValue,
  hint,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  label: string;
  defaultValue?: string;
  /** A sentence under the field. */
  hint?: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The last attempt's error, if it failed. */
  error: unknown;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const errors = formErrors(error, fields);

  return (
    <Dialog title={title} onClose={onClose}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(textOf(new FormData(event.currentTarget), "name"));
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField
          name="name"
          label={label}
          defaultValue={defaultValue}
          autoComplete="off"
          required
          error={errors.fields.name}
        />
        {hint ? <p className="field-hint">{hint}</p> : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={pending} pendingLabel={pendingLabel}>
            {submitLabel}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
