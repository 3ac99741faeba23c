import type { EngramClient } from "./client.js";

// Placeholder until this resource is built.
export function createCards(_supabase: EngramClient) {
  return {};
}
