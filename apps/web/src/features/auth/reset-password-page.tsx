import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Link } from "../../lib/navigation.js";
import { useSecondFactor } from "../../session/second-factor.js";
import { useSession } from "../../session/session-context.js";
import { Loading } from "../../ui/loading.js";
import { AuthCard } from "./auth-card.js";
import { TwoFactorStep } from "./two-factor-step.js";
import { useUpdatePassword } from "./use-auth.js";

const fields = ["password"] as const;

/** Reached through the reset email's link, which signs the user in for this. */
export function ResetPasswordPage() {
  const session = useSession();
  const formRef = useRef<HTMLFormElement>(null);
  const update = useUpdatePassword();
  const secondFactor = useSecondFactor();

  if (update.isSuccess) {
    return (
      <AuthCard title="Password changed">
        <p role="status">Your new password is set. Use it the next time you sign in.</p>
        <p>
          <Link className="button primary" to="/decks">
            Go to your decks
          </Link>
        </p>
      </AuthCard>
    );
  }
  if (session.status === "loading") return <Loading />;
  if (session.status === "signed-out") {
    return (
      <AuthCard title="Set a new password">
        <p className="notice">Open the link from your reset email to set a new password here.</p>
        <p>
          <Link to="/forgot-password">Send me a reset link</Link>
        </p>
      </AuthCard>
    );
  }

  if (secondFactor === "checking") return <Loading />;
  // With two-factor sign-in, auth changes the password only once the link's session has the code too.
  if (secondFactor === "needed") return <TwoFactorStep />;

  // updatePassword checks one value, so its issues name no field.
  const errors = formErrors(update.error, fields, "password");
  return (
    <AuthCard title="Set a new password" intro={`For ${session.session.user.email ?? "your account"}.`}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate(textOf(new FormData(event.currentTarget), "password"));
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          required
          error={errors.fields.password}
        />
        <div className="form-actions">
          <SubmitButton pending={update.isPending} pendingLabel="Saving…">
            Set new password
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  );
}
