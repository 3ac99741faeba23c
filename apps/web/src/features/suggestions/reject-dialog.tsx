/** Asks for the reason a rejection gives its suggesters (optional). */
import { maxRationaleLength } from "@engram/sdk";
import { type FormEvent, useState } from "react";
import { TextAreaField } from "../../forms/text-field.js";
import { errorMessage } from "../../lib/error-messages.js";
import { Dialog } from "../../ui/dialog.js";

export function RejectDialog({
  count,
  pending,
  error,
  onClose,
  onReject,
}: {
  count: number;
  pending: boolean;
  error: Error | null;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onReject(reason);
  };
  return (
    <Dialog
      title={count === 1 ? "Reject suggestion" : `Reject ${count} suggestions`}
      onClose={onClose}
      closeButton
      description="The suggester sees your reason."
    >
      <form className="suggest-form" onSubmit={submit}>
        <TextAreaField
          name="reason"
          label="Reason (optional)"
          value={reason}
          maxLength={maxRationaleLength}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
        />
        {error ? (
          <p role="alert" className="notice">
            {errorMessage(error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={pending} aria-busy={pending}>
            {pending ? "Rejecting…" : "Reject"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
