/**
 * Sign-up, sign-in, PKCE callbacks, password reset, sign-out and session events.
 * In the browser the client comes from @supabase/ssr's createBrowserClient, so
 * the session lives in cookies and every email link is a PKCE `?code=` link.
 */

import { emailSchema, passwordSchema } from "@engram/core";
import type { AuthError, Session, User } from "@supabase/supabase-js";
import { z } from "zod/mini";
import { EngramError, fromAuthError, toEngramError } from "./errors.js";
import { attachToTopic, type TopicHandle } from "./realtime/topics.js";
import { validate } from "./request.js";
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

export interface SignUpInput {
  email: string;
  password: string;
  /** Where the confirmation link lands (the app's `/auth/callback`); must be on the auth allow-list. */
  redirectTo?: string;
  displayName?: string;
}

export interface SignUpResult {
  user: User;
  /** Null until the email is confirmed (when confirmations are on). */
  session: Session | null;
}

const signInSchema = z.object({
  email: emailSchema,
  password: z.string().check(z.minLength(1, "Enter your password.")),
});
const emailOnlySchema = z.object({ email: emailSchema });
/** GoTrue's email codes have 6 to 10 digits (`otp_length`); spaces and dashes typed between them are dropped. */
const emailCodeSchema = z.object({
  email: emailSchema,
  code: z.pipe(
    z.pipe(
      z.string(),
      z.transform((code: string) => code.replace(/[\s-]/g, "")),
    ),
    z.string().check(z.regex(/^\d{6,10}$/, "Enter the code from the email: 6 or more digits.")),
  ),
});

/** Too short a password is `auth/weak-password`, as the server would say, but caught before sending. */
function checkPassword(password: unknown): string {
  const result = z.safeParse(passwordSchema, password);
  if (result.success) return result.data;
  throw new EngramError("auth/weak-password", result.error.issues[0]?.message ?? "Choose a longer password.", {
    field: "password",
  });
}

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

/** auth-js results are `{ data, error: null } | { data: nulls, error }`; this returns the first's data. */
async function call<R extends { data: unknown; error: AuthError | null }>(
  request: Promise<R>,
): Promise<Extract<R, { error: null }>["data"]> {
  let result: R;
  try {
    result = await request;
  } catch (error) {
    throw toEngramError(error);
  }
  if (result.error) throw fromAuthError(result.error);
  return result.data as Extract<R, { error: null }>["data"];
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
    /** Creates an account; with confirmations on, a link is emailed and `session` is null. */
    async signUp(input: SignUpInput): Promise<SignUpResult> {
      const { email } = validate(emailOnlySchema, input);
      const password = checkPassword(input.password);
      const data = await call(
        supabase.auth.signUp({
          email,
          password,
          options: {
            ...(input.redirectTo ? { emailRedirectTo: input.redirectTo } : {}),
            ...(input.displayName ? { data: { display_name: input.displayName } } : {}),
          },
        }),
      );
      if (!data.user) throw new EngramError("internal", "Sign-up returned no user.");
      // With confirmations on, GoTrue hides existing accounts behind a user without identities.
      if (data.user.identities?.length === 0) {
        throw new EngramError("auth/user-exists", "An account with this email already exists.");
      }
      return { user: data.user, session: data.session };
    },

    async signIn(input: { email: string; password: string }): Promise<Session> {
      const credentials = validate(signInSchema, input);
      const data = await call(supabase.auth.signInWithPassword(credentials));
      return data.session;
    },

    /** Emails a sign-in link (and a one-time code); `createUser: false` refuses unknown addresses. */
    async sendMagicLink(input: { email: string; redirectTo?: string; createUser?: boolean }): Promise<void> {
      const { email } = validate(emailOnlySchema, input);
      await call(
        supabase.auth.signInWithOtp({
          email,
          options: {
            shouldCreateUser: input.createUser ?? true,
            ...(input.redirectTo ? { emailRedirectTo: input.redirectTo } : {}),
          },
        }),
      );
    },

    /**
     * Signs in with the code a sign-up confirmation (or sign-in) email carries,
     * confirming the address as its link would; works in any browser. A wrong,
     * used or expired code is `validation` on the `code` field.
     */
    async verifyEmailCode(input: { email: string; code: string }): Promise<Session> {
      const { email, code } = validate(emailCodeSchema, input);
      try {
        // Type `email` matches the confirmation code and the sign-in code alike.
        const data = await call(supabase.auth.verifyOtp({ email, token: code, type: "email" }));
        if (!data.session) throw new EngramError("internal", "The code was accepted but no session came back.");
        return data.session;
      } catch (error) {
        if (error instanceof EngramError && error.code === "auth/link-expired") {
          const message = "That code is wrong or has expired. Check it, or send a new email.";
          throw new EngramError("validation", message, {
            field: "code",
            rule: "code_invalid",
            detail: [{ field: "code", message }],
            cause: error,
          });
        }
        throw error;
      }
    },

    /** Sends the sign-up confirmation email again (a new link and code; the old ones stop working). */
    async resendConfirmation(input: { email: string; redirectTo?: string }): Promise<void> {
      const { email } = validate(emailOnlySchema, input);
      await call(
        supabase.auth.resend({
          type: "signup",
          email,
          ...(input.redirectTo ? { options: { emailRedirectTo: input.redirectTo } } : {}),
        }),
      );
    },

    /** Finishes a PKCE email link on `/auth/callback`: trades `?code=` for a session. */
    async exchangeCode(code: string): Promise<Session> {
      if (!code) throw new EngramError("auth/link-expired", "This link is incomplete. Ask for a new one.");
      const data = await call(supabase.auth.exchangeCodeForSession(code));
      return data.session;
    },

    /**
     * Finishes an email link in the browser. A browser client (createBrowserClient's
     * defaults) trades the page's `?code=` for a session while it starts; this waits
     * for that and reports it: the session, or `auth/link-expired` for a used,
     * expired or foreign link (PKCE links work only in the browser that asked).
     * A link opened in another browser has rule `code_verifier_missing`: the auth
     * server has already confirmed the address (or used up the sign-in link)
     * before redirecting, only this browser cannot finish signing in.
     */
    async completeRedirect(): Promise<Session> {
      const { error } = await supabase.auth.initialize();
      if (error) throw fromAuthError(error);
      const data = await call(supabase.auth.getSession());
      if (data.session) return data.session;
      // auth-js trades a `?code=` only where its code verifier is stored: a code left untraded
      // means the link was opened in a browser other than the one that asked for it.
      const href = (globalThis as { location?: { href: string } }).location?.href;
      if (href && new URL(href).searchParams.has("code")) {
        throw new EngramError("auth/link-expired", "This link was opened in another browser.", {
          rule: "code_verifier_missing",
        });
      }
      throw new EngramError("auth/link-expired", "This link has expired, was already used or was opened elsewhere.");
    },

    /** Emails a password-reset link; answers the same whether or not the account exists. */
    async requestPasswordReset(input: { email: string; redirectTo?: string }): Promise<void> {
      const { email } = validate(emailOnlySchema, input);
      await call(
        supabase.auth.resetPasswordForEmail(email, input.redirectTo ? { redirectTo: input.redirectTo } : undefined),
      );
    },

    /** Sets a new password for the signed-in user (after a reset link, or from settings). */
    async updatePassword(password: string): Promise<User> {
      const checked = checkPassword(password);
      const data = await call(supabase.auth.updateUser({ password: checked }));
      return data.user;
    },

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
      const data = await call(supabase.auth.getSession());
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
