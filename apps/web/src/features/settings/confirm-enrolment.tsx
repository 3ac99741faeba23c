/**
 * Setting up two-factor sign-in, second step: the QR code and key GoTrue gave
 * for a new authenticator app, and the code from the app that turns it on.
 */
import type { TotpEnrollment } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { totpCodeMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";

/**
 * GoTrue's QR code comes as `data:image/svg+xml;utf-8,<svg…>` with the markup
 * unescaped, and a `#` in it (a colour) would end the URL there and leave a
 * broken picture: the markup is percent-encoded again.
 */
function qrCodeSource(qrCode: string): string {
  const comma = qrCode.indexOf(",");
  const markup = qrCode.slice(comma + 1);
  if (!qrCode.startsWith("data:image/svg+xml") || qrCode.slice(0, comma).includes("base64")) return qrCode;
  const decoded = /%[0-9a-f]{2}/i.test(markup) && !markup.includes("<") ? decodeURIComponent(markup) : markup;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(decoded)}`;
}

export function ConfirmEnrolment({
  enrolment,
  onCancel,
  onEnabled,
}: {
  enrolment: TotpEnrollment;
  onCancel: () => void;
  onEnabled: () => void;
}) {
  // Confirming it refreshes the factors and the session's level.
  const verify = useMutation(useEngramMutations().auth.mfa.verifyTotp());

  return (
    <div className="enrol">
      <ol className="enrol-steps">
        <li>
          <p>Scan this QR code with your authenticator app (1Password, Google Authenticator, Authy…).</p>
          <img
            className="enrol-qr"
            src={qrCodeSource(enrolment.qrCode)}
            alt="QR code to add Engram to your authenticator app"
          />
          <p className="enrol-secret">
            Can't scan it? Enter this key in the app instead:{" "}
            <code className="setup-key" translate="no">
              {enrolment.secret}
            </code>
          </p>
        </li>
        <li>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              verify.mutate(
                { factorId: enrolment.factorId, code: textOf(new FormData(event.currentTarget), "code") },
                { onSuccess: onEnabled },
              );
            }}
          >
            <TextField
              name="code"
              label="Enter the 6-digit code the app shows"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              error={verify.error ? totpCodeMessage(verify.error) : undefined}
            />
            <div className="settings-actions">
              <SubmitButton pending={verify.isPending} pendingLabel="Checking…">
                Turn on
              </SubmitButton>
              <button type="button" className="button secondary" onClick={onCancel}>
                Cancel
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}
