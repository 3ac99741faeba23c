import type { RunningStack } from "../../src/server.js";
import { clientFor, newUser } from "../support/stack.js";

/** A user in auth.users and a supabase-js client acting with their access token (no auth API needed). */
export async function userClient(stack: RunningStack) {
  const { id, token } = await newUser(stack);
  const client = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
  return { id, token, client };
}

export const bytes = (text: string) => new TextEncoder().encode(text);

/** A PNG signature followed by `rest`: bytes the server accepts as image/png. */
export const png = (rest = "") => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...bytes(rest)]);
