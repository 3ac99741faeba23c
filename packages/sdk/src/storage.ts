import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createStorage(_supabase: EngramClient) {
  return {};
}
