/** Sending the confirmation, magic link, recovery and email change emails, with their OTPs and PKCE flows. */
import type { Queryable } from "../database/types.js";
import { audit } from "./audit.js";
import type { Auth } from "./context.js";
import { AuthError } from "./errors.js";
import { type Challenge, createFlowState } from "./flow-state.js";
import { sendAuthEmail, sendReauthenticationEmail } from "./mail.js";
import { issueToken, secondsUntilResend } from "./one-time-tokens.js";
import type { UserRow } from "./users.js";

function checkFrequency(auth: Auth, sentAt: Date | null, client: string): void {
  const wait = secondsUntilResend(sentAt, auth.stack.config.auth.email.maxFrequencySeconds);
  if (wait > 0) {
    throw new AuthError(
      429,
      "over_email_send_rate_limit",
      `For security purposes, you can only request this after ${wait} seconds.`,
    );
  }
  auth.limiter.hit("emailSent", client);
}

interface SendOptions {
  redirectTo: string;
  challenge: Challenge | null;
  client: string;
}

export async function sendConfirmation(auth: Auth, db: Queryable, user: UserRow, options: SendOptions) {
  checkFrequency(auth, user.confirmation_sent_at, options.client);
  const email = user.email ?? "";
  const token = await issueToken(db, user.id, "confirmation_token", email, tokenOptions(auth, options));
  if (options.challenge) await createFlowState(db, user.id, options.challenge, "email/signup");
  await audit(db, user, "user_confirmation_requested", { provider: "email" });
  sendAuthEmail(auth.stack, "signup", email, token, options.redirectTo);
}

export async function sendInvite(auth: Auth, db: Queryable, user: UserRow, options: SendOptions) {
  auth.limiter.hit("emailSent", options.client);
  const email = user.email ?? "";
  const token = await issueToken(db, user.id, "confirmation_token", email, tokenOptions(auth, options));
  await db.query("update auth.users set invited_at = now() where id = $1", [user.id]);
  await audit(db, user, "user_invited", { user_email: email });
  sendAuthEmail(auth.stack, "invite", email, token, options.redirectTo);
}

/** Magic link and recovery share the recovery_token column, as in GoTrue. */
export async function sendRecoveryKind(
  auth: Auth,
  db: Queryable,
  user: UserRow,
  kind: "magiclink" | "recovery",
  options: SendOptions,
) {
  checkFrequency(auth, user.recovery_sent_at, options.client);
  const email = user.email ?? "";
  const token = await issueToken(db, user.id, "recovery_token", email, tokenOptions(auth, options));
  if (options.challenge) await createFlowState(db, user.id, options.challenge, kind);
  if (kind === "recovery") await audit(db, user, "user_recovery_requested");
  sendAuthEmail(auth.stack, kind, email, token, options.redirectTo);
}

/** Email change: a link to the new address, and with double_confirm_changes one to the current address too. */
export async function sendEmailChange(
  auth: Auth,
  db: Queryable,
  user: UserRow,
  newEmail: string,
  options: SendOptions,
) {
  checkFrequency(auth, user.email_change_sent_at, options.client);
  const pkce = tokenOptions(auth, options);
  await db.query("update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1", [
    user.id,
    newEmail,
  ]);
  const tokenNew = await issueToken(db, user.id, "email_change_token_new", newEmail, pkce);
  const current = user.email ?? "";
  const double = auth.stack.config.auth.email.doubleConfirmChanges && current !== "";
  const tokenCurrent = double ? await issueToken(db, user.id, "email_change_token_current", current, pkce) : null;
  if (!double) await db.query("update auth.users set email_change_token_current = '' where id = $1", [user.id]);
  if (options.challenge) await createFlowState(db, user.id, options.challenge, "email_change");
  sendAuthEmail(auth.stack, "email_change", newEmail, tokenNew, options.redirectTo);
  if (tokenCurrent) sendAuthEmail(auth.stack, "email_change", current, tokenCurrent, options.redirectTo);
}

const tokenOptions = (auth: Auth, options: SendOptions) => ({
  otpLength: auth.stack.config.auth.email.otpLength,
  pkce: options.challenge !== null,
});

/** `GET /reauthenticate`: a code to the user's address, kept as the reauthentication token. */
export async function sendReauthentication(auth: Auth, db: Queryable, user: UserRow, client: string) {
  checkFrequency(auth, user.reauthentication_sent_at, client);
  const email = user.email ?? "";
  const token = await issueToken(db, user.id, "reauthentication_token", email, {
    otpLength: auth.stack.config.auth.email.otpLength,
    pkce: false,
  });
  sendReauthenticationEmail(auth.stack, email, token.otp);
}
