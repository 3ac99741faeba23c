import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createMembers(_supabase: EngramClient) {
  return {};
}
