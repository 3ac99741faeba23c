/**
 * Sessions ended elsewhere end here promptly, not when the access token runs
 * out (up to an hour later; access tokens stay an hour long).
 * - A device that signs out everywhere ends the other sessions and then says so
 *   on the user's own private channel (`engram.auth.signOut({ scope: "global" })`);
 *   every signed-in tab listens there (`watchSignOutElsewhere`) and asks the
 *   server, which no longer knows a revoked session.
 * - A device that missed that message (asleep, offline, the tab in the
 *   background) asks the server as soon as it is used again: when the window
 *   regains focus, the tab becomes visible or the connection returns.
 * Either way auth-js drops a session the server refuses, which reaches the UI
 * as the `expired` session event: "Your session ended. Sign in again to continue."
 */
import type { Engram } from "@engram/sdk";
import { useEffect } from "react";

export function useSessionWatch(engram: Engram | null, signedIn: boolean) {
  useEffect(() => {
    if (!engram || !signedIn) return;
    const stopWatching = engram.auth.watchSignOutElsewhere();

    let checking = false;
    const check = () => {
      // One question at a time: focus and visibility often change together.
      if (checking || !navigator.onLine) return;
      checking = true;
      engram.auth
        .getUser()
        // Offline or a server hiccup says nothing about the session; the next use asks again.
        .catch(() => undefined)
        .finally(() => {
          checking = false;
        });
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") check();
    };
    window.addEventListener("focus", check);
    window.addEventListener("online", check);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopWatching();
      window.removeEventListener("focus", check);
      window.removeEventListener("online", check);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [engram, signedIn]);
}
