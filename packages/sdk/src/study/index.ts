import type { EngramClient } from "../client.js";

// Placeholder until this resource is built.
export function createStudy(_supabase: EngramClient) {
  return {};
}
