import { useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Link, Navigate } from "../../lib/navigation.js";
import { withNext } from "../../session/places.js";
import { useSession } from "../../session/session-context.js";
import { AuthCard } from "./auth-card.js";
import { CheckEmail } from "./check-email.js";
import { EmailCodeForm } from "./email-code-form.js";
import { useSignUp } from "./use-auth.js";
import { useNext } from "./use-next.js";

const fields = ["email", "password"] as const;

export function SignUpPage() {
  const session = useSession();
  const next = useNext();
  const formRef = useRef<HTMLFormElement>(null);
  const signUp = useSignUp();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) {
    return (
      <AuthCard title="Confirm your email">
        <CheckEmail email={sentTo} then="Open its link, or type the code it holds below.">
          We sent a confirmation link and code to
        </CheckEmail>
        <EmailCodeForm email={sentTo} next={next} resend="signup" />
        <p className="auth-switch">
          Already confirmed? <Link to={withNext("/sign-in", next)}>Sign in</Link>
        </p>
      </AuthCard>
    );
  }
  if (session.status === "signed-in") return <Navigate to={next} replace />;

  const errors = formErrors(signUp.error, fields);
  return (
    <AuthCard title="Create your account" intro="Free, and your decks go wherever you do.">
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const email = textOf(form, "email");
          signUp.mutate(
            { email, password: textOf(form, "password"), next },
            {
              // Without confirmations the account is signed in at once, and the session takes over.
              onSuccess: (result) => {
                if (!result.session) setSentTo(email.trim());
              },
            },
          );
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField name="email" label="Email" type="email" autoComplete="email" required error={errors.fields.email} />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          required
          error={errors.fields.password}
        />
        <div className="form-actions">
          <SubmitButton pending={signUp.isPending} pendingLabel="Creating your account…">
            Create account
          </SubmitButton>
        </div>
      </form>
      <p className="auth-switch">
        Already have an account? <Link to={withNext("/sign-in", next)}>Sign in</Link>
      </p>
    </AuthCard>
  );
}
