import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { placeOf, type SignInState } from "./places.js";
import { useSession } from "./session-context.js";

const authPaths = ["/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/auth/callback"];

/** When the session ends on its own, sends the user to sign in, keeping their place for after. */
export function useExpiryRedirect() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const expired = session.status === "signed-out" && session.expired;
  const onAuthScreen = authPaths.includes(location.pathname);

  useEffect(() => {
    if (!expired || onAuthScreen) return;
    const state: SignInState = { reason: "expired" };
    navigate(`/sign-in?next=${encodeURIComponent(placeOf(location))}`, { replace: true, state });
  }, [expired, onAuthScreen, location, navigate]);
}
