/** Email OTPs and their hashes, kept in auth.users columns and auth.one_time_tokens as GoTrue keeps them. */
import { createHash, randomInt, randomUUID } from "node:crypto";
import type { Queryable } from "../database/types.js";

/** The columns of the tokens an email link or code confirms through `/verify`. */
export type EmailTokenColumn =
  | "confirmation_token"
  | "recovery_token"
  | "email_change_token_new"
  | "email_change_token_current";

export type TokenColumn = EmailTokenColumn | "reauthentication_token";

const sentAtColumn: Record<TokenColumn, string> = {
  confirmation_token: "confirmation_sent_at",
  recovery_token: "recovery_sent_at",
  email_change_token_new: "email_change_sent_at",
  email_change_token_current: "email_change_sent_at",
  reauthentication_token: "reauthentication_sent_at",
};

/** `hex(sha224(email + otp))`, GoTrue's `GenerateTokenHash`. */
export const tokenHash = (email: string, otp: string) =>
  createHash("sha224")
    .update(email + otp)
    .digest("hex");

export function newOtp(length: number): string {
  let otp = "";
  for (let i = 0; i < length; i++) otp += String(randomInt(10));
  return otp;
}

export interface IssuedToken {
  otp: string;
  /** What goes in the link's `token` (with `pkce_` for PKCE flows). */
  hash: string;
}

/** Issues an OTP for `email`, stores its hash in the user's column and in one_time_tokens. */
export async function issueToken(
  db: Queryable,
  userId: string,
  column: TokenColumn,
  email: string,
  options: { otpLength: number; pkce: boolean },
): Promise<IssuedToken> {
  const otp = newOtp(options.otpLength);
  const hash = (options.pkce ? "pkce_" : "") + tokenHash(email, otp);
  await db.query(`update auth.users set ${column} = $2, ${sentAtColumn[column]} = now() where id = $1`, [userId, hash]);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
       created_at = now(), updated_at = now()`,
    [randomUUID(), userId, column, hash, email],
  );
  return { otp, hash };
}

export async function clearToken(db: Queryable, userId: string, column: TokenColumn): Promise<void> {
  await db.query(`update auth.users set ${column} = '' where id = $1`, [userId]);
  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = $2", [userId, column]);
}

/** Seconds left before another email of this kind may go to the user (`max_frequency`). */
export function secondsUntilResend(sentAt: Date | null, maxFrequencySeconds: number): number {
  if (!sentAt) return 0;
  const next = new Date(sentAt).getTime() + maxFrequencySeconds * 1000;
  return Math.max(0, Math.ceil((next - Date.now()) / 1000));
}
