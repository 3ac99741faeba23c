import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "../lib/navigation.js";
import { placeOf, type SignInState } from "./places.js";
import { useSession } from "./session-context.js";

const authPaths = ["/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/auth/callback"];

/**
 * When the session ends on its own, sends the user to sign in, keeping their
 * place for after. Once per ending: public pages stay reachable afterwards.
 */
export function useExpiryRedirect() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const handled = useRef(false);
  const expired = session.status === "signed-out" && session.expired;

  useEffect(() => {
    if (!expired) {
      handled.current = false;
      return;
    }
    if (handled.current) return;
    handled.current = true;
    if (authPaths.includes(location.pathname)) return;
    const state: SignInState = { reason: "expired" };
    navigate(`/sign-in?next=${encodeURIComponent(placeOf(location))}`, { replace: true, state });
  }, [expired, location, navigate]);
}
