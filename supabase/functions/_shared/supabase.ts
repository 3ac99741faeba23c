import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { env } from "./env.ts";

// supabase-js builds its realtime client eagerly and throws on Node 20, which has no global
// WebSocket. Functions never open realtime, so a constructor that refuses to connect is enough;
// Deno and Node 22+ use their own WebSocket.
class NoRealtime {
  constructor() {
    throw new Error("Realtime is not available in edge functions");
  }
}
const transport = ((globalThis as { WebSocket?: unknown }).WebSocket ?? NoRealtime) as never;

/** A server-side client for `key` (the anon or service role key): no session storage, no refresh. */
export function supabaseWith(key: string): SupabaseClient {
  return createClient(env("SUPABASE_URL"), key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport },
  });
}
