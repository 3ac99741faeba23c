import { type ReactNode, useRef } from "react";
import { Dialog } from "../ui/dialog.js";
import { ErrorSummary } from "./error-summary.js";
import { formErrors, textOf } from "./form-errors.js";
import { SubmitButton } from "./submit-button.js";
import { TextField } from "./text-field.js";

const nameOnly = ["name"] as const;

/** A dialog asking for one name: a deck's (new subdeck, rename) or a preset's (new, rename). */
export function NameDialog({
  title,
  description,
  label,
  defaultValue,
  maxLength = 120,
  hint,
  errorFields = nameOnly,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  description?: ReactNode;
  label: string;
  defaultValue?: string;
  maxLength?: number;
  /** A sentence under the field. */
  hint?: ReactNode;
  /** Fields whose errors the dialog lists (the name's shown at the field). */
  errorFields?: readonly string[];
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The last attempt's error, if it failed. */
  error: unknown;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const errors = formErrors(error, errorFields);

  return (
    <Dialog title={title} description={description} onClose={onClose}>
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
          maxLength={maxLength}
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
