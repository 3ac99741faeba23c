import { EngramError } from "@engram/sdk";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link, useNavigate, useSearchParams } from "../../lib/navigation.js";
import { useEngram } from "../../session/engram-context.js";
import { withNext } from "../../session/places.js";
import { Loading } from "../../ui/loading.js";
import { AuthCard } from "./auth-card.js";
import { useNext } from "./use-next.js";

/**
 * Where every email link lands (confirm sign-up, magic link, reset). The client
 * trades `?code=` for a session as it starts; this page waits for the outcome.
 */
export function AuthCallbackPage() {
  const engram = useEngram();
  const navigate = useNavigate();
  const next = useNext();
  // Sign-up marks its link (`flow=signup`): opened elsewhere, it still confirmed the address.
  const [params] = useSearchParams();
  const confirming = params.get("flow") === "signup";
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let active = true;
    // Safe to run twice (StrictMode): it reports the one trade the client made at start-up,
    // including a link the auth server refused itself (its error comes back in the URL).
    engram.auth.completeRedirect().then(
      () => {
        if (active) navigate(next, { replace: true });
      },
      (failure: unknown) => {
        if (active) setError(failure);
      },
    );
    return () => {
      active = false;
    };
  }, [engram, next, navigate]);

  if (!error) {
    return (
      <AuthCard title="Signing you in">
        <Loading label="Checking your link…" />
      </AuthCard>
    );
  }
  const resetting = next === "/reset-password";
  if (openedElsewhere(error) && !resetting) {
    return <OpenedElsewhere next={next} confirming={confirming} />;
  }
  return (
    <AuthCard title="This link didn't work">
      <p className="notice" role="alert">
        {errorMessage(error)}
      </p>
      <p>
        {resetting ? (
          <Link className="button primary" to="/forgot-password">
            Send me a new reset link
          </Link>
        ) : (
          <Link className="button primary" to={withNext("/sign-in", next)}>
            Ask for a new sign-in link
          </Link>
        )}
      </p>
    </AuthCard>
  );
}

/** A PKCE link opened in a browser that did not ask for it: the auth server did its part, this browser cannot sign in. */
function openedElsewhere(error: unknown): boolean {
  return error instanceof EngramError && error.rule === "code_verifier_missing";
}

function OpenedElsewhere({ next, confirming }: { next: string; confirming: boolean }) {
  if (confirming) {
    return (
      <AuthCard title="Your email is confirmed">
        <p>
          The link was opened in a different browser from the one you signed up in, so you are not signed in here yet.
          Sign in to continue.
        </p>
        <p>
          <Link className="button primary" to={withNext("/sign-in", next)}>
            Sign in
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="This link didn't work">
      <p className="notice" role="alert">
        This sign-in link works only in the browser where you asked for it. Ask for a new one here, or type the code
        from the email.
      </p>
      <p>
        <Link className="button primary" to={withNext("/sign-in", next)}>
          Ask for a new sign-in link
        </Link>
      </p>
    </AuthCard>
  );
}
