import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Database, openPglite, openPostgres, type Queryable, setRequestContext } from "@engram/local-stack";
import { inject } from "vitest";
import { withDatabase } from "./global-setup.js";

/**
 * A fresh database for one test file: platform, migrations and seed applied,
 * on PGlite or, when DATABASE_URL is set, on a new PostgreSQL database.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const template = inject("postgresTemplate");
  if (url && template) {
    const name = `engram_test_${randomUUID().replaceAll("-", "")}`;
    const admin = openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`create database ${name} template ${template}`);
    const db = openPostgres({ connectionString: withDatabase(url, name), max: 4 });
    return {
      ...db,
      async close() {
        await db.close();
        await admin.exec(`drop database if exists ${name}`);
        await admin.close();
      },
    };
  }
  const tarball = await readFile(inject("pgliteTemplate"));
  return openPglite({ loadDataDir: new Blob([tarball]) });
}

/**
 * Someone calling the API: anonymous, a signed-in user (with the auth.sessions
 * row their token names, as GoTrue issues it), or the service role.
 */
export type Actor =
  | { kind: "anon" }
  | { kind: "user"; id: string; email: string; sessionId: string }
  | { kind: "service" };

export const anon: Actor = { kind: "anon" };
export const service: Actor = { kind: "service" };

function contextOf(actor: Actor) {
  switch (actor.kind) {
    case "anon":
      return { role: "anon", claims: { role: "anon" } };
    case "service":
      return { role: "service_role", claims: { role: "service_role" } };
    case "user":
      return {
        role: "authenticated",
        claims: {
          sub: actor.id,
          role: "authenticated",
          aud: "authenticated",
          email: actor.email,
          aal: "aal1",
          session_id: actor.sessionId,
          is_anonymous: false,
        },
      };
  }
}

/** Runs `fn` in one transaction as `actor`, the way PostgREST runs a request, and commits. */
export function actAs<T>(db: Database, actor: Actor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await setRequestContext(tx, contextOf(actor));
    return fn(tx);
  });
}

class Rollback extends Error {}

/**
 * Runs `fn` as `actor` and always rolls back, so a probe leaves no trace.
 * Resolves to the result, or to the database error it raised.
 */
export async function probeAs<T>(
  db: Database,
  actor: Actor,
  fn: (tx: Queryable) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: DatabaseError }> {
  let outcome: { ok: true; value: T } | undefined;
  try {
    await actAs(db, actor, async (tx) => {
      outcome = { ok: true, value: await fn(tx) };
      throw new Rollback();
    });
  } catch (error) {
    if (error instanceof Rollback && outcome) return outcome;
    return { ok: false, error: error as DatabaseError };
  }
  throw new Error("unreachable");
}

/** The fields pg and PGlite both put on a database error. */
export interface DatabaseError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
}

/**
 * Creates a confirmed user directly in auth.users (as GoTrue would), firing
 * the profile trigger, and a signed-in session for their tokens to name.
 */
export async function createUser(
  db: Database,
  options: { email?: string; displayName?: string; timezone?: string } = {},
): Promise<Actor & { kind: "user" }> {
  const id = randomUUID();
  const email = options.email ?? `user-${id.slice(0, 8)}@example.test`;
  const metadata: Record<string, string> = {};
  if (options.displayName) metadata.display_name = options.displayName;
  if (options.timezone) metadata.timezone = options.timezone;
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       extensions.crypt('password-123', extensions.gen_salt('bf', 4)), now(),
       '{"provider":"email","providers":["email"]}', $3, now(), now())`,
    [id, email, JSON.stringify(metadata)],
  );
  const sessionId = randomUUID();
  await db.query(
    "insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')",
    [sessionId, id],
  );
  return { kind: "user", id, email, sessionId };
}
