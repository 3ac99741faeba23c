/** Clients, users and mail for SDK tests, against the stack started in global-setup.ts. */
import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import { expect, inject } from "vitest";
import WebSocket from "ws";
import { createEngram, type Engram, type EngramClient } from "../../src/client.js";
import type { Database } from "../../src/database.types.js";
import { EngramError } from "../../src/errors.js";

export const stack = () => inject("stack");

/** supabase-js as a Node program creates it; Node 20 has no global WebSocket, so realtime gets `ws`. */
export function supabaseClient(options: SupabaseClientOptions<"public"> = {}, key = stack().anonKey): EngramClient {
  return createClient<Database>(stack().url, key, {
    ...options,
    auth: { persistSession: false, autoRefreshToken: false, ...options.auth },
    realtime: { transport: WebSocket as never, ...options.realtime },
  });
}

export const adminClient = () => supabaseClient({}, stack().serviceRoleKey);

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

/**
 * The password of every test account, given to the admin API as a bcrypt hash
 * of cost 4 (GoTrue's `password_hash`). A cost-10 hash, as the server makes
 * from a plain password, takes the stack ~0.1 s of CPU to make and again to
 * check at each sign-in: on a busy machine that was most of a test's time.
 * Tests about passwords (changing, resetting) still go through the server's own hashing.
 */
const testPassword = {
  plain: "pw-shared-by-test-accounts",
  hash: "$2b$04$sRm31dyb5I1NubVuMqJj0.4i73kO5HexALJPoeN7Gcilyi6YftG2e",
};

export interface Account {
  id: string;
  email: string;
  password: string;
}

/**
 * A confirmed account, made through the admin API. Its study day starts twelve
 * hours from now (UTC), so "today" cannot roll over while a test runs; pass
 * `keepDefaults` to keep the profile as sign-up leaves it.
 */
export async function newAccount(prefix = "user", { keepDefaults = false } = {}): Promise<Account> {
  const email = uniqueEmail(prefix);
  const admin = adminClient();
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password_hash: testPassword.hash,
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error("no user");
  if (!keepDefaults) {
    const dayStart = (new Date().getUTCHours() + 12) % 24;
    const updated = await admin.from("profiles").update({ day_starts_at: dayStart }).eq("id", data.user.id);
    if (updated.error) throw updated.error;
  }
  return { id: data.user.id, email, password: testPassword.plain };
}

export interface SignedIn {
  engram: Engram;
  supabase: EngramClient;
  account: Account;
}

/** A new account, signed in through the SDK on its own client. */
export async function signedIn(
  prefix = "user",
  options: SupabaseClientOptions<"public"> = {},
  { keepDefaults = false } = {},
): Promise<SignedIn> {
  const account = await newAccount(prefix, { keepDefaults });
  const supabase = supabaseClient(options);
  const engram = createEngram(supabase);
  await engram.auth.signIn({ email: account.email, password: account.password });
  return { engram, supabase, account };
}

/** The newest email to an address, with its first link. */
export async function lastEmail(to: string) {
  const base = `${stack().url}/mailbox/api/v1/mailbox/${encodeURIComponent(to)}`;
  const list = (await (await fetch(base)).json()) as { id: string }[];
  if (!list[0]) throw new Error(`no email to ${to}`);
  const detail = (await (await fetch(`${base}/${list[0].id}`)).json()) as {
    subject: string;
    body: { html: string; text: string };
  };
  const link = /href="([^"]+)"/.exec(detail.body.html)?.[1]?.replaceAll("&#38;", "&").replaceAll("&amp;", "&");
  return {
    subject: detail.subject,
    html: detail.body.html,
    text: detail.body.text,
    link: link ?? "",
    count: list.length,
  };
}

/** Opens an email link as a browser would and returns where it redirects (the app URL with `?code=`). */
export async function followLink(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`no redirect from ${link} (${response.status})`);
  return new URL(location);
}

/** The EngramError a call rejects with (fails the test when it resolves or throws something else). */
export async function errorOf(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngramError);
  return error as EngramError;
}
