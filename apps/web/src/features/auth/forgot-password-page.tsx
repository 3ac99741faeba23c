import { useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Link } from "../../lib/navigation.js";
import { AuthCard } from "./auth-card.js";
import { CheckEmail } from "./check-email.js";
import { useRequestPasswordReset } from "./use-auth.js";

const fields = ["email"] as const;

export function ForgotPasswordPage() {
  const formRef = useRef<HTMLFormElement>(null);
  const reset = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) {
    return (
      <AuthCard title="Reset your password">
        {/* The same answer whether or not the account exists, so addresses cannot be probed. */}
        <CheckEmail email={sentTo}>If there is an account, we sent a link to set a new password to</CheckEmail>
        <p className="auth-switch">
          <Link to="/sign-in">Back to sign in</Link>
        </p>
      </AuthCard>
    );
  }

  const errors = formErrors(reset.error, fields);
  return (
    <AuthCard title="Reset your password" intro="Enter your email and we'll send you a link to set a new password.">
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const email = textOf(new FormData(event.currentTarget), "email");
          reset.mutate(email, { onSuccess: () => setSentTo(email.trim()) });
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField name="email" label="Email" type="email" autoComplete="email" required error={errors.fields.email} />
        <div className="form-actions">
          <SubmitButton pending={reset.isPending} pendingLabel="Sending…">
            Send reset link
          </SubmitButton>
          <Link to="/sign-in">Back to sign in</Link>
        </div>
      </form>
    </AuthCard>
  );
}
