/** "Are you sure?" for a step that removes or hands something over: the safe choice first, the error inside. */
import type { ReactNode } from "react";
import { Dialog } from "../ui/dialog.js";
import { ErrorSummary } from "./error-summary.js";
import { formErrors } from "./form-errors.js";
import { SubmitButton } from "./submit-button.js";

export function ConfirmDialog({
  title,
  confirmLabel,
  pendingLabel,
  cancelLabel = "Cancel",
  pending,
  error,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  cancelLabel?: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <ErrorSummary errors={formErrors(error, [])} />
        {children}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            {cancelLabel}
          </button>
          <SubmitButton pending={pending} pendingLabel={pendingLabel} variant="danger">
            {confirmLabel}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
