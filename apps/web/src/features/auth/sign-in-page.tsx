import { useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { sessionEndedMessage } from "../../lib/error-messages.js";
import { Link, Navigate, useLocation } from "../../lib/navigation.js";
import { type SignInState, withNext } from "../../session/places.js";
import { useSecondFactor } from "../../session/second-factor.js";
import { useSession } from "../../session/session-context.js";
import { Loading } from "../../ui/loading.js";
import { AuthCard } from "./auth-card.js";
import { CheckEmail } from "./check-email.js";
import { EmailCodeForm } from "./email-code-form.js";
import { TwoFactorStep } from "./two-factor-step.js";
import { useSendMagicLink, useSignIn } from "./use-auth.js";
import { useNext } from "./use-next.js";

const fields = ["email", "password"] as const;

export function SignInPage() {
  const session = useSession();
  const next = useNext();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const signIn = useSignIn();
  const magicLink = useSendMagicLink();
  const [linkSentTo, setLinkSentTo] = useState<string | null>(null);
  const expired = (location.state as SignInState | null)?.reason === "expired";

  // Signed in (now, or already): on to where the user was going, after the authenticator code if one is set up.
  if (session.status === "signed-in") return <SignedIn next={next} />;

  if (linkSentTo) {
    return (
      <AuthCard title="Sign in">
        <CheckEmail email={linkSentTo} then="Open its link in this browser, or type the code it holds below.">
          We sent a sign-in link and code to
        </CheckEmail>
        <EmailCodeForm email={linkSentTo} next={next} follow={false} />
        <p>
          <button type="button" className="link-button" onClick={() => setLinkSentTo(null)}>
            Use a password instead
          </button>
        </p>
      </AuthCard>
    );
  }

  const pending = signIn.isPending || magicLink.isPending;
  const errors = formErrors(signIn.error ?? magicLink.error, fields);

  const sendLink = () => {
    const email = formRef.current ? textOf(new FormData(formRef.current), "email") : "";
    signIn.reset();
    magicLink.mutate({ email, next }, { onSuccess: () => setLinkSentTo(email.trim()) });
  };

  return (
    <AuthCard title="Sign in" intro="Welcome back. Your decks are waiting.">
      {expired ? (
        <p className="notice" role="status">
          {sessionEndedMessage}
        </p>
      ) : null}
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          magicLink.reset();
          signIn.mutate({ email: textOf(form, "email"), password: textOf(form, "password") });
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField name="email" label="Email" type="email" autoComplete="email" required error={errors.fields.email} />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.fields.password}
        />
        <div className="form-actions">
          <SubmitButton pending={signIn.isPending} pendingLabel="Signing in…">
            Sign in
          </SubmitButton>
          <Link to="/forgot-password">Forgot your password?</Link>
        </div>
        <div className="divider">
          <span>or</span>
        </div>
        <button type="button" className="button secondary wide" onClick={sendLink} disabled={pending}>
          {magicLink.isPending ? "Sending…" : "Email me a sign-in link"}
        </button>
      </form>
      <p className="auth-switch">
        New to Engram? <Link to={withNext("/sign-up", next)}>Create an account</Link>
      </p>
    </AuthCard>
  );
}

function SignedIn({ next }: { next: string }) {
  const secondFactor = useSecondFactor();
  if (secondFactor === "checking") return <Loading />;
  if (secondFactor === "needed") return <TwoFactorStep />;
  return <Navigate to={next} replace />;
}
