import type { RunningStack } from "../../src/server.js";
import { clientFor, newUser } from "../support/stack.js";

/** A user in auth.users and a supabase-js client acting with their access token (no auth API needed). */
export async function userClient(stack: RunningStack) {
  const { id, token } = await newUser(stack);
  const client = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
  return { id, token, client };
}

export const bytes = (text: string) => new TextEncoder().encode(text);
