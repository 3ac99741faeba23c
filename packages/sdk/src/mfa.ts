/**
 * Two-factor sign-in with an authenticator app (TOTP), over supabase-js's
 * `auth.mfa`. A user with a verified factor must reach aal2 (password, then a
 * code) before the database lets them read or change their data.
 */
import { authResult } from "./auth-result.js";
import { EngramError } from "./errors.js";
import type { EngramClient } from "./supabase-client.js";

export type AssuranceLevel = "aal1" | "aal2";

export interface TotpEnrollment {
  factorId: string;
  /** The QR code to scan, as an SVG data URL (usable as an `<img src>`). */
  qrCode: string;
  /** The same secret, for typing into the app by hand. */
  secret: string;
  /** The `otpauth://` URI the QR code encodes. */
  uri: string;
}

export interface TotpFactor {
  id: string;
  friendlyName: string | null;
  status: "verified" | "unverified";
  createdAt: string;
}

export interface Assurance {
  /** The level of the current session. */
  current: AssuranceLevel;
  /** The level the user can reach: `aal2` once they have a verified factor. */
  next: AssuranceLevel;
}

/** Six digits, spaces allowed as authenticator apps show them ("123 456"). */
function sixDigits(code: string): string {
  const digits = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(digits)) {
    throw new EngramError("validation", "Enter the 6-digit code from your authenticator app.", {
      field: "code",
      rule: "format",
    });
  }
  return digits;
}

export function createMfa(supabase: EngramClient) {
  // Read on use: a client built with `accessToken` (the import worker's) throws on any `auth` access.
  const mfa = () => supabase.auth.mfa;

  async function listFactors(): Promise<TotpFactor[]> {
    const data = await authResult(mfa().listFactors());
    return data.all
      .filter((factor) => factor.factor_type === "totp")
      .map((factor) => ({
        id: factor.id,
        friendlyName: factor.friendly_name || null,
        status: factor.status === "verified" ? "verified" : "unverified",
        createdAt: factor.created_at,
      }));
  }

  return {
    /**
     * Starts adding an authenticator app: show `qrCode` (or `secret`), then call
     * `verifyTotp` with the code the app shows. An enrolment left unfinished is
     * replaced, so starting again always works.
     */
    async enrollTotp(options: { friendlyName?: string } = {}): Promise<TotpEnrollment> {
      for (const factor of await listFactors()) {
        if (factor.status === "unverified") await authResult(mfa().unenroll({ factorId: factor.id }));
      }
      const friendlyName = options.friendlyName?.trim();
      const data = await authResult(mfa().enroll({ factorType: "totp", ...(friendlyName ? { friendlyName } : {}) }));
      if (data.type !== "totp") throw new EngramError("internal", "The server did not enrol an authenticator app.");
      return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, uri: data.totp.uri };
    },

    /**
     * Checks a code from the app: the factor becomes verified (when new) and the
     * session aal2. A wrong or stale code is `validation` on the field `code`.
     * A code already accepted (the same one entered again within 90 s, which
     * may be someone replaying it) ends every session of the user: it is
     * `auth/session-expired` with rule `code_reused`, and this client is
     * signed out too.
     */
    async verifyTotp(factorId: string, code: string): Promise<void> {
      const digits = sixDigits(code);
      try {
        await authResult(mfa().challengeAndVerify({ factorId, code: digits }));
      } catch (error) {
        if (error instanceof EngramError && error.rule === "code_reused") {
          // The server already ended the session; forget it here, as a sign-out would.
          await supabase.auth.signOut({ scope: "local" });
        }
        throw error;
      }
    },

    /** The user's authenticator apps, newest enrolment last. */
    listFactors,

    /** Removes a factor (a verified one needs an aal2 session); the session is renewed to reflect it. */
    async unenroll(factorId: string): Promise<void> {
      await authResult(mfa().unenroll({ factorId }));
      // The stored session still lists the factor and may say aal2; fetch the new state.
      await authResult(supabase.auth.refreshSession());
    },

    /**
     * Where the session stands. `current === "aal1" && next === "aal2"` after a
     * password sign-in means: ask for the code from the authenticator app.
     */
    async assurance(): Promise<Assurance> {
      const data = await authResult(mfa().getAuthenticatorAssuranceLevel());
      if (!data.currentLevel) {
        throw new EngramError("auth/session-expired", "Your session has ended. Sign in again.");
      }
      const current: AssuranceLevel = data.currentLevel === "aal2" ? "aal2" : "aal1";
      return { current, next: data.nextLevel === "aal2" ? "aal2" : current };
    },
  };
}

export type EngramMfa = ReturnType<typeof createMfa>;
