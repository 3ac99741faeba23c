import type { ReactNode } from "react";
import { Navigate, useLocation } from "../lib/navigation.js";
import { Loading } from "../ui/loading.js";
import { LiveUpdates } from "./live-updates.js";
import { placeOf, type SignInState } from "./places.js";
import { useSecondFactor } from "./second-factor.js";
import { useSession } from "./session-context.js";

/**
 * Routes behind this need a session; others are sent to sign in and brought back after.
 * A session still waiting for its authenticator code is sent to the sign-in page too, which asks for it.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === "loading") return <Loading />;
  if (session.status === "signed-out") {
    const state: SignInState = session.expired ? { reason: "expired" } : {};
    return <Navigate to={`/sign-in?next=${encodeURIComponent(placeOf(location))}`} state={state} replace />;
  }
  return <SecondFactorGate>{children}</SecondFactorGate>;
}

function SecondFactorGate({ children }: { children: ReactNode }) {
  const secondFactor = useSecondFactor();
  const location = useLocation();
  if (secondFactor === "checking") return <Loading />;
  if (secondFactor === "needed") {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(placeOf(location))}`} replace />;
  }
  return (
    <>
      <LiveUpdates />
      {children}
    </>
  );
}
