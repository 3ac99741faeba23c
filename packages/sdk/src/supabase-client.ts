/**
 * The client type every resource module takes. It lives apart from client.ts,
 * which imports all of those modules, so that they need not import it back.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "./database.types.js";

/** A supabase-js client typed with Engram's schema (`createClient<Database>` or `createBrowserClient<Database>`). */
export type EngramClient = SupabaseClient<Database>;
