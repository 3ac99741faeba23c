import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createNotes(_supabase: EngramClient) {
  return {};
}
