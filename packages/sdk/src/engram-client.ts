/**
 * `createEngramClient`: the supabase-js client for code that cannot hold the
 * session itself — a Web Worker (no cookies, no localStorage) or a Node
 * process acting for a user whose token it is handed.
 */
import { createClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import type { Database } from "./database.types.js";
import type { EngramClient } from "./supabase-client.js";

export interface EngramClientOptions {
  /** The Supabase project's URL. */
  url: string;
  /** The project's public (anon or publishable) key. */
  key: string;
  /**
   * The signed-in user's access token (a JWT), asked for before every request,
   * so a renewed token is picked up as soon as the session renews it; null to
   * act as an anonymous visitor.
   */
  accessToken: () => Promise<string | null>;
  /**
   * The WebSocket class Realtime connects with. Browsers, workers and Node 22+
   * have one built in; on Node 20 pass the `ws` package's, or creating the client throws.
   */
  webSocket?: RealtimeTransport;
}

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<"public">["realtime"]>["transport"]>;

/**
 * A client that borrows another client's session: every request, and Realtime,
 * carries the token `accessToken` returns. It keeps no session of its own (no
 * storage, no refresh timer), so RLS sees whoever the token belongs to.
 *
 * Made for `@engram/sdk/transfer` (import, export, optimise, reschedule) and
 * direct queries. `supabase.auth` is not available on it, and neither is
 * anything that asks it who is signed in (`engram.auth`, `engram.decks.list`…):
 * supabase-js throws. Realtime receives the token asynchronously: before
 * joining a private channel on a new client, `await supabase.realtime.setAuth()`.
 *
 * @example
 * // In a worker, ask the page for its current token:
 * const engram = createEngram(createEngramClient({ url, key, accessToken: askPageForToken }));
 * await importDeck(engram, file, { wasm });
 */
export function createEngramClient({ url, key, accessToken, webSocket }: EngramClientOptions): EngramClient {
  return createClient<Database>(url, key, {
    accessToken,
    ...(webSocket ? { realtime: { transport: webSocket } } : {}),
  });
}
