/**
 * The second step of signing in for users with an authenticator app: the
 * password gave an aal1 session, and the 6-digit code raises it to aal2.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { type FormErrors, noErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { totpCodeMessage } from "../../lib/error-messages.js";
import { useEngram } from "../../session/engram-context.js";
import { assuranceKey } from "../../session/second-factor.js";
import { useSignOut } from "../../session/use-sign-out.js";
import { AuthCard } from "./auth-card.js";

function useVerifyCode() {
  const engram = useEngram();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => {
      const factors = await engram.auth.mfa.listFactors();
      const factor = factors.find((candidate) => candidate.status === "verified");
      if (!factor) return;
      await engram.auth.mfa.verifyTotp(factor.id, code);
    },
    // The session is aal2 now; the screens waiting on it may open.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assuranceKey() }),
  });
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
