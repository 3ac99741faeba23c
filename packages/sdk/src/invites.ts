import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createInvites(_supabase: EngramClient) {
  return {};
}
