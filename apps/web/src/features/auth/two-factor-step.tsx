/**
 * The second step of signing in for users with an authenticator app: the
 * password gave an aal1 session, and the 6-digit code raises it to aal2.
 */
import { useMutation } from "@tanstack/react-query";
import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { type FormErrors, noErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { totpCodeMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import { useSignOut } from "../../session/use-sign-out.js";
import { AuthCard } from "./auth-card.js";

/** Once the session is aal2, the screens waiting on it open. */
function useVerifyCode() {
  return useMutation(useEngramMutations().auth.mfa.completeSignIn());
}

export function TwoFactorStep() {
  const verify = useVerifyCode();
  const signOut = useSignOut();
  const formRef = useRef<HTMLFormElement>(null);
  const errors: FormErrors = verify.error
    ? {
        fields: { code: totpCodeMessage(verify.error) },
        summary: [{ field: "code", message: totpCodeMessage(verify.error) }],
      }
    : noErrors;

  return (
    <AuthCard
      title="Enter your code"
      intro="Open your authenticator app and enter the 6-digit code it shows for Engram."
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          verify.mutate(textOf(new FormData(event.currentTarget), "code"));
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField
          name="code"
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={7}
          // The only thing to do on this step, right after the password.
          autoFocus
          error={errors.fields.code}
        />
        <div className="form-actions">
          <SubmitButton pending={verify.isPending} pendingLabel="Checking…">
            Verify
          </SubmitButton>
          <button
            type="button"
            className="link-button"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate("local")}
          >
            Use a different account
          </button>
        </div>
      </form>
      <p className="auth-switch">
        Lost your device? Sign in on a device where you are still signed in, remove the authenticator app in Settings,
        and set it up again.
      </p>
    </AuthCard>
  );
}
