/**
 * The one Supabase client of the app and the Engram SDK over it. Only this
 * module touches supabase-js; everything else goes through `engram`.
 */
import { createEngram, type Database, type Engram } from "@engram/sdk";
import { createBrowserClient } from "@supabase/ssr";
import { env } from "../lib/env.js";

export function createAppEngram(): Engram {
  // @supabase/ssr's defaults: PKCE, session in cookies (400-day max-age, chunked),
  // and the `?code=` of an email link traded on /auth/callback as the client starts.
  const supabase = createBrowserClient<Database>(env.supabaseUrl, env.supabaseAnonKey);
  return createEngram(supabase);
}
