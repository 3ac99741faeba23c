/**
 * Sign-up, sign-in, PKCE callbacks, password reset, sign-out and session events.
 * In the browser the client comes from @supabase/ssr's createBrowserClient, so
 * the session lives in cookies and every email link is a PKCE `?code=` link.
 * The ways in (auth-flows.ts) load with their first call; the session's own
 * calls and events, which every signed-in screen uses, are here.
 */

import type { Session, User } from "@supabase/supabase-js";
import type { AuthFlows } from "./auth-flows.js";
import { authResult } from "./auth-result.js";
import { type EngramError, fromAuthError, toEngramError } from "./errors.js";
import { lazyClient } from "./lazy-client.js";
import { attachToTopic, type TopicHandle } from "./realtime/topics.js";
import type { EngramClient } from "./supabase-client.js";

export type { Session, User };

/**
 * What happened to the session:
 * - `signed-in` (also on start when a session was stored), `signed-out` (this device asked);
 * - `refreshed` (the access token was renewed silently);
 * - `expired` (the session ended without a sign-out here: refresh token revoked, signed out everywhere…);
 * - `user-updated`, `password-recovery` (a reset link was opened).
 */
export type SessionEvent = "signed-in" | "signed-out" | "refreshed" | "expired" | "user-updated" | "password-recovery";

export type SessionListener = (event: SessionEvent, session: Session | null) => void;

export type { SignUpInput, SignUpResult } from "./auth-flows.js";

/**
 * The user's own private channel (supabase/migrations/20261125090200_user_channel.sql):
 * only their devices may hear or send on it. A device that signs out everywhere
 * says so there, so the others end their sessions at once instead of working on
 * until their access tokens run out (up to an hour).
 */
const userTopic = (userId: string) => `user:${userId}`;
const signedOutEverywhere = "signed-out-everywhere";

/** Tells the user's other devices over Realtime's HTTP broadcast (no join needed); best effort. */
async function tellOtherDevices(supabase: EngramClient, userId: string): Promise<void> {
  const topic = userTopic(userId);
  // realtime-js keeps one channel per topic: reuse this device's listening one, if any, and leave it open.
  const listening = supabase.getChannels().some((channel) => channel.topic === `realtime:${topic}`);
  await supabase.realtime.setAuth();
  const channel = supabase.channel(topic, { config: { private: true } });
  try {
    await channel.httpSend(signedOutEverywhere, { at: new Date().toISOString() });
  } finally {
    if (!listening) await supabase.removeChannel(channel);
  }
}

export function createAuth(supabase: EngramClient) {
  // A SIGNED_OUT this client did not ask for means the session ended elsewhere.
  let signingOut = false;

  /**
   * The first half of signing out everywhere: the other sessions end, then the
   * other devices hear of it while this session can still send on the user's
   * channel. In that order, a device that asks the server on hearing it finds
   * its session already gone; told first, it could ask too early, and told
   * after this device's own sign-out, there would be no token left to send with.
   * The global sign-out that follows ends this session and any started meanwhile.
   */
  async function endOthersAndTellThem(): Promise<void> {
    const { data } = await supabase.auth.getSession();
    const userId = data.session?.user.id;
    if (!userId) return;
    const { error } = await supabase.auth.signOut({ scope: "others" });
    // The global sign-out reports what went wrong; the others still learn on their next check.
    if (error) return;
    await tellOtherDevices(supabase, userId).catch(() => undefined);
  }

  return {
    ...lazyClient<AuthFlows>(() => import("./auth-flows.js").then((module) => module.createAuthFlows(supabase)), {
      signUp: true,
      signIn: true,
      sendMagicLink: true,
      verifyEmailCode: true,
      resendConfirmation: true,
      exchangeCode: true,
      completeRedirect: true,
      requestPasswordReset: true,
      updatePassword: true,
    }),

    /**
     * Ends the session on this device (`local`), on every device (`global`) or on the others only.
     * `global` also tells the user's other devices, which end their sessions at once when they
     * watch for it (`watchSignOutElsewhere`).
     */
    async signOut(options: { scope?: "local" | "global" | "others" } = {}): Promise<void> {
      const scope = options.scope ?? "local";
      signingOut = true;
      try {
        if (scope === "global") await endOthersAndTellThem();
        const { error } = await supabase.auth.signOut({ scope });
        // The session is gone either way; a dead session needs no remote sign-out.
        if (error && fromAuthError(error).code !== "auth/session-expired") throw fromAuthError(error);
      } finally {
        signingOut = false;
      }
    },

    /** The stored session (no request); null when signed out. */
    async getSession(): Promise<Session | null> {
      const data = await authResult(supabase.auth.getSession());
      return data.session;
    },

    /** The signed-in user as the server sees them (verifies the token); null when signed out or expired. */
    async getUser(): Promise<User | null> {
      // Without a stored session auth-js answers AuthSessionMissingError without a request.
      const { data, error } = await supabase.auth.getUser();
      if (error) {
        const mapped = fromAuthError(error);
        if (mapped.code === "auth/session-expired") return null;
        throw mapped;
      }
      return data.user;
    },

    /**
     * Listens on the user's own channel for another device signing out everywhere
     * and then asks the server about this session (`getUser`): a revoked session
     * ends here at once, with the `expired` session event. Also asks after the
     * channel joins again following a drop, since a message may have been missed.
     * Returns the function that stops listening. A device that misses the message
     * altogether learns on its next `getUser` or token refresh.
     */
    watchSignOutElsewhere(options: { onError?: (error: EngramError) => void } = {}): () => void {
      let stopped = false;
      let topic: TopicHandle | null = null;
      const check = () => {
        // This device's own sign-out everywhere reaches its own channel too.
        if (signingOut || stopped) return;
        // auth-js removes a session the server no longer knows, which ends it here as `expired`.
        supabase.auth.getUser().catch(() => undefined);
      };
      supabase.auth.getSession().then(
        ({ data }) => {
          const userId = data.session?.user.id;
          if (stopped || !userId) return;
          // The channel is shared with the user's change streams (realtime/topics.ts).
          topic = attachToTopic(supabase, userTopic(userId), {
            broadcast: { [signedOutEverywhere]: check },
            onJoin: (_channel, rejoin) => {
              if (rejoin) check();
            },
            onError: options.onError,
          });
        },
        options.onError ? (error: unknown) => options.onError?.(toEngramError(error)) : () => undefined,
      );
      return () => {
        stopped = true;
        void topic?.release();
      };
    },

    /** Calls `listener` on every session change; returns the unsubscribe function. */
    onSessionChange(listener: SessionListener): () => void {
      let hadSession = false;
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        const mapped = mapEvent(event, session, hadSession, signingOut);
        hadSession = session !== null;
        if (mapped) listener(mapped, session);
      });
      return () => data.subscription.unsubscribe();
    },
  };
}

function mapEvent(
  event: string,
  session: Session | null,
  hadSession: boolean,
  signingOut: boolean,
): SessionEvent | null {
  switch (event) {
    case "INITIAL_SESSION":
      return session ? "signed-in" : null;
    case "SIGNED_IN":
      // auth-js repeats SIGNED_IN when a tab regains focus; only a new session is news.
      return hadSession ? null : "signed-in";
    case "TOKEN_REFRESHED":
      return "refreshed";
    case "USER_UPDATED":
      return "user-updated";
    case "PASSWORD_RECOVERY":
      return "password-recovery";
    case "SIGNED_OUT":
      return signingOut || !hadSession ? "signed-out" : "expired";
    default:
      return null;
  }
}
