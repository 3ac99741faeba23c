import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { errorMessage } from "../../lib/error-messages.js";
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
