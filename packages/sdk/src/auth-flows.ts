/**
 * Signing up and in, email links and codes, and passwords: what a signed-out
 * visitor does, loaded with its first call (client.ts), so signed-in screens
 * never download it.
 */
import { emailSchema, passwordSchema } from "@engram/core";
import type { Session, User } from "@supabase/supabase-js";
import { z } from "zod/mini";
import { authResult } from "./auth-result.js";
import { EngramError, fromAuthError } from "./errors.js";
import { validate } from "./request.js";
import type { EngramClient } from "./supabase-client.js";

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

export function createAuthFlows(supabase: EngramClient) {
  return {
    /** Creates an account; with confirmations on, a link is emailed and `session` is null. */
    async signUp(input: SignUpInput): Promise<SignUpResult> {
      const { email } = validate(emailOnlySchema, input);
      const password = checkPassword(input.password);
      const data = await authResult(
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
      const data = await authResult(supabase.auth.signInWithPassword(credentials));
      return data.session;
    },

    /** Emails a sign-in link (and a one-time code); `createUser: false` refuses unknown addresses. */
    async sendMagicLink(input: { email: string; redirectTo?: string; createUser?: boolean }): Promise<void> {
      const { email } = validate(emailOnlySchema, input);
      await authResult(
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
        const data = await authResult(supabase.auth.verifyOtp({ email, token: code, type: "email" }));
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
      await authResult(
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
      const data = await authResult(supabase.auth.exchangeCodeForSession(code));
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
      const data = await authResult(supabase.auth.getSession());
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
      await authResult(
        supabase.auth.resetPasswordForEmail(email, input.redirectTo ? { redirectTo: input.redirectTo } : undefined),
      );
    },

    /** Sets a new password for the signed-in user (after a reset link, or from settings). */
    async updatePassword(password: string): Promise<User> {
      const checked = checkPassword(password);
      const data = await authResult(supabase.auth.updateUser({ password: checked }));
      return data.user;
    },
  };
}

export type AuthFlows = ReturnType<typeof createAuthFlows>;
