import { randomUUID } from "node:crypto";
import type { RunningStack } from "../../src/server.js";
import { clientFor } from "../support/stack.js";

/** A user in auth.users and a supabase-js client acting with their access token (no auth API needed). */
export async function userClient(stack: RunningStack) {
  const id = randomUUID();
  await stack.stack.db.query(
    "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
    [id, `${id}@example.test`],
  );
  const token = await stack.stack.keys.sign({
    sub: id,
    role: "authenticated",
    aud: "authenticated",
    email: `${id}@example.test`,
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  const client = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
  return { id, token, client };
}

export const bytes = (text: string) => new TextEncoder().encode(text);
