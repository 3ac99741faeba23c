/**
 * The session as the UI sees it (docs/product.md §1): loading → signed in ⇄ signed out.
 * `expired` marks a session that ended without the user signing out here (the
 * refresh token was revoked or signed out everywhere), so the sign-in screen
 * can say why.
 */
import type { Session } from "@engram/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useEngramSource } from "./engram-context.js";
import { useSecondFactor } from "./second-factor.js";
import { useSessionWatch } from "./session-watch.js";
import { hasStoredSession } from "./stored-session.js";

export type SessionState =
  | { status: "loading"; session: null }
  | { status: "signed-in"; session: Session }
  | { status: "signed-out"; session: null; expired: boolean };

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const { engram, load } = useEngramSource();
  const queryClient = useQueryClient();
  // No session cookie: signed out, known at once and without loading the SDK (see stored-session.ts).
  const [state, setState] = useState<SessionState>(() =>
    hasStoredSession() ? { status: "loading", session: null } : { status: "signed-out", session: null, expired: false },
  );

  useEffect(() => {
    if (hasStoredSession()) void load();
  }, [load]);

  // From the moment the SDK is loaded (at once with a session, or when a screen first needs it).
  useEffect(() => {
    if (!engram) return;
    let active = true;
    const unsubscribe = engram.auth.onSessionChange((event, session) => {
      if (session) {
        // `refreshed` lands here too and changes nothing the user sees.
        setState({ status: "signed-in", session });
        return;
      }
      // Nothing cached belongs to whoever signs in next.
      queryClient.clear();
      setState({ status: "signed-out", session: null, expired: event === "expired" });
    });
    // A visitor without a stored session gets no event; ask once.
    engram.auth.getSession().then(
      (session) => {
        if (active && !session) {
          setState((current) =>
            current.status === "loading" ? { status: "signed-out", session: null, expired: false } : current,
          );
        }
      },
      () => {
        if (active) setState({ status: "signed-out", session: null, expired: false });
      },
    );
    return () => {
      active = false;
      unsubscribe();
    };
  }, [engram, queryClient]);

  return (
    <SessionContext value={state}>
      {state.status === "signed-in" ? <SessionWatch /> : null}
      {children}
    </SessionContext>
  );
}

/** Watches for a sign-out elsewhere once the session is complete (after the authenticator code, if any). */
function SessionWatch() {
  const { engram } = useEngramSource();
  const secondFactor = useSecondFactor();
  useSessionWatch(engram, secondFactor === "done");
  return null;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error("useSession must be used inside <SessionProvider>");
  return state;
}
