/** auth.users and auth.identities as GoTrue stores them, and the user JSON auth-js parses. */
import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import type { Queryable } from "../database/types.js";
import { audit } from "./audit.js";
import { AuthError, badRequest, unprocessable } from "./errors.js";
import type { EmailTokenColumn } from "./one-time-tokens.js";

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

/** An auth.mfa_factors row. */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: "verified" | "unverified";
  created_at: Date;
  updated_at: Date;
  secret: string | null;
  last_challenged_at: Date | null;
}

/** A factor as GoTrue serialises it (the secret never leaves the server). */
export function factorJson(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name || undefined,
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    last_challenged_at: iso(factor.last_challenged_at) ?? null,
    phone: "",
  };
}

const iso = (value: Date | string | null | undefined) =>
  value == null ? undefined : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** The user as GoTrue serialises it (omitempty fields left out when unset). */
export async function userJson(db: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const identities = await db.query<IdentityRow>(
    "select * from auth.identities where user_id = $1 order by created_at",
    [user.id],
  );
  const factors = await db.query<FactorRow>("select * from auth.mfa_factors where user_id = $1 order by created_at", [
    user.id,
  ]);
  return {
    id: user.id,
    aud: user.aud ?? "",
    role: user.role ?? "",
    email: user.email ?? "",
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: iso(identity.last_sign_in_at),
      created_at: iso(identity.created_at),
      updated_at: iso(identity.updated_at),
      email: identity.email ?? undefined,
    })),
    // GoTrue leaves `factors` out when the user has none.
    factors: factors.length ? factors.map(factorJson) : undefined,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  };
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [user] = await db.query<UserRow>("select * from auth.users where id = $1", [id]);
  return user ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const [user] = await db.query<UserRow>(
    "select * from auth.users where lower(email) = lower($1) and is_sso_user = false",
    [email],
  );
  return user ?? null;
}

/** The user holding a token hash in that column (templates may carry it with or without the PKCE prefix). */
export async function findUserByTokenHash(db: Queryable, column: EmailTokenColumn, tokenHash: string) {
  const hash = tokenHash.replace(/^pkce_/, "");
  const [user] = await db.query<UserRow>(
    `select * from auth.users where ${column} <> '' and ${column} in ($1::text, 'pkce_' || $1::text)`,
    [hash],
  );
  return user ?? null;
}

/** The user of that address whose column holds the hash of an emailed code (the new address for an email change). */
export async function findUserByOtp(db: Queryable, column: EmailTokenColumn, email: string, hash: string) {
  const address = column === "email_change_token_new" ? "email_change" : "email";
  const [user] = await db.query<UserRow>(
    `select * from auth.users where lower(${address}) = $1::text and ${column} in ($2::text, 'pkce_' || $2::text)`,
    [email.toLowerCase(), hash],
  );
  return user ?? null;
}

// GoTrue's email pattern (internal/api/mail.go validateEmail).
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** A trimmed, lower-cased valid email, or GoTrue's validation error. */
export function validateEmail(value: unknown): string {
  const email = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (!email) throw badRequest("validation_failed", "An email address is required");
  if (email.length > 255) throw badRequest("validation_failed", "An email address is too long");
  if (!emailPattern.test(email)) {
    throw badRequest("validation_failed", "Unable to validate email address: invalid format");
  }
  return email;
}

/** The password strength check of GoTrue (length only; no character or HIBP requirements configured). */
export function checkPassword(password: string, minimumLength: number): void {
  if (password.length < minimumLength) {
    throw new AuthError(422, "weak_password", `Password should be at least ${minimumLength} characters.`, {
      weak_password: { reasons: ["length"] },
    });
  }
  if (password.length > 72) {
    throw unprocessable("validation_failed", "Password cannot be longer than 72 characters");
  }
}

export const hashPassword = (password: string) => bcrypt.hash(password, 10);

export async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  if (!user.encrypted_password) return false;
  try {
    return await bcrypt.compare(password, user.encrypted_password);
  } catch {
    return false;
  }
}

export interface NewUser {
  id?: string;
  email: string;
  password?: string | null;
  passwordHash?: string | null;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  role?: string;
  confirmed: boolean;
  invited?: boolean;
}

/** Inserts a user with its email identity, as GoTrue's signup does (so triggers on auth.users fire). */
export async function createUser(db: Queryable, input: NewUser): Promise<UserRow> {
  const id = input.id ?? randomUUID();
  const encrypted = input.passwordHash ?? (input.password ? await hashPassword(input.password) : "");
  // GoTrue keeps the provider's claims in identity_data (the signup data fills the
  // keys they leave free); user_metadata is the caller's data, plus Confirm's email_verified.
  const identityData = {
    ...input.userMetadata,
    sub: id,
    email: input.email,
    email_verified: input.confirmed,
    phone_verified: false,
  };
  const appMetadata = { provider: "email", providers: ["email"], ...input.appMetadata };
  const userMetadata = { ...input.userMetadata, ...(input.confirmed ? { email_verified: true } : {}) };
  const [user] = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $2, $3, $4,
       case when $5 then now() end, case when $6 then now() end, $7, $8, false, now(), now(), false)
     returning *`,
    [
      id,
      input.role ?? "authenticated",
      input.email,
      encrypted,
      input.confirmed,
      input.invited ?? false,
      JSON.stringify(appMetadata),
      JSON.stringify(userMetadata),
    ],
  );
  await db.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2::text, $2::uuid, $3, 'email', now(), now(), now())`,
    [randomUUID(), id, JSON.stringify(identityData)],
  );
  return user as UserRow;
}

/** An anonymous user, as GoTrue's SignupAnonymously inserts it: no address, no identity, the caller's data. */
export async function createAnonymousUser(db: Queryable, userMetadata: Record<string, unknown>): Promise<UserRow> {
  const [user] = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, is_super_admin,
       created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, false, now(), now(), true)
     returning *`,
    [randomUUID(), JSON.stringify({ provider: "anonymous", providers: ["anonymous"] }), JSON.stringify(userMetadata)],
  );
  return user as UserRow;
}

/**
 * Moves the user to their confirmed new address, as GoTrue's emailChangeVerify
 * and ConfirmEmailChange: the email identity follows (made if the user had
 * none, as an anonymous user), and the user is no longer anonymous.
 */
export async function applyEmailChange(db: Queryable, user: UserRow, email: string): Promise<void> {
  await db.query(
    `update auth.users set email = $2::text, email_change = '', email_change_token_new = '', email_change_token_current = '',
       email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), is_anonymous = false,
       updated_at = now()
     where id = $1`,
    [user.id, email],
  );
  const [identity] = await db.query("select id from auth.identities where user_id = $1 and provider = 'email'", [
    user.id,
  ]);
  if (identity) {
    await db.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
         updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id, email],
    );
  } else {
    const identityData = { sub: user.id, email, email_verified: true, phone_verified: false };
    await db.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2::text, $2::uuid, $3, 'email', now(), now(), now())`,
      [randomUUID(), user.id, JSON.stringify(identityData)],
    );
  }
  // GoTrue's UpdateAppMetaDataProviders: the providers are those of the user's identities.
  await db.query(
    `update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('providers',
       (select jsonb_agg(distinct provider) from auth.identities where user_id = $1))
     where id = $1`,
    [user.id],
  );
  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type like 'email_change%'", [user.id]);
}

/** The auth.users columns the API changes directly. */
export interface UserChanges {
  email?: string;
  encrypted_password?: string;
  raw_user_meta_data?: Record<string, unknown>;
  raw_app_meta_data?: Record<string, unknown>;
  role?: string;
  banned_until?: Date | null;
  email_change?: string;
  email_change_confirm_status?: number;
}

const jsonColumns = new Set(["raw_user_meta_data", "raw_app_meta_data"]);

/** Sets the given columns (and updated_at) of one user. */
export async function updateUser(db: Queryable, id: string, changes: UserChanges): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (!entries.length) return;
  const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
  const values = entries.map(([column, value]) => (jsonColumns.has(column) ? JSON.stringify(value) : value));
  await db.query(`update auth.users set ${sets.join(", ")}, updated_at = now() where id = $1`, [id, ...values]);
}

/** Keeps the email identity's address in step with the user's, as GoTrue's admin update does. */
export async function setIdentityEmail(db: Queryable, userId: string, email: string): Promise<void> {
  await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
     where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
}

/** One page of users, newest first, and how many there are in all. */
export async function listUsers(db: Queryable, page: number, perPage: number) {
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>("select count(*)::int as count from auth.users");
  const users = await db.query<UserRow>("select * from auth.users order by created_at desc, id limit $1 offset $2", [
    perPage,
    (page - 1) * perPage,
  ]);
  return { users, total: count };
}

export async function deleteUser(db: Queryable, id: string): Promise<void> {
  await db.query("delete from auth.users where id = $1", [id]);
}

/** GoTrue's soft delete: the row stays, stripped of what identifies the person, without identities. */
export async function softDeleteUser(db: Queryable, id: string): Promise<void> {
  await db.query(
    `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '',
       raw_app_meta_data = '{}', raw_user_meta_data = '{}', updated_at = now() where id = $1`,
    [id],
  );
  await db.query("delete from auth.identities where user_id = $1", [id]);
}

/** Marks the email verified, as GoTrue's `Confirm` does (metadata and identity say email_verified). */
export async function confirmEmail(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}', updated_at = now()
     where id = $1`,
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}', updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation_token'", [userId]);
  const user = await findUserById(db, userId);
  if (user) await audit(db, user, "user_signedup", { provider: "email" });
}

/** Merges metadata as GoTrue does: top-level keys replaced, keys set to null removed. */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export const isBanned = (user: UserRow) => user.banned_until != null && new Date(user.banned_until) > new Date();
