import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createStats(_supabase: EngramClient) {
  return {};
}
