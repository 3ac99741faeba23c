import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createRealtime(_supabase: EngramClient) {
  return {};
}
