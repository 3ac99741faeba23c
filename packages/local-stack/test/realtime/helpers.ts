import type { RealtimeChannel, RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { RunningStack } from "../../src/server.js";
import { clientFor, newUser } from "../support/stack.js";

export { newUser };

/**
 * A supabase-js client whose realtime socket acts with `token` (the anon key when absent).
 * The token comes from the `accessToken` option: a bare `realtime.setAuth(token)` right
 * after createClient races supabase-js's INITIAL_SESSION handler, which resets it to the key.
 */
export async function realtimeClient(stack: RunningStack, token?: string): Promise<SupabaseClient> {
  const client = token ? clientFor(stack, stack.anonKey, { accessToken: async () => token }) : clientFor(stack);
  if (token) await client.realtime.setAuth(token);
  return client;
}

/** The realtime clients a test file opens, each closed by `closeAll` (call it in afterAll). */
export function realtimeClients(stack: RunningStack) {
  const opened: SupabaseClient[] = [];
  return {
    async client(token?: string): Promise<SupabaseClient> {
      const client = await realtimeClient(stack, token);
      opened.push(client);
      return client;
    },
    async closeAll(): Promise<void> {
      for (const client of opened) await client.removeAllChannels();
    },
  };
}

export type RowChange = RealtimePostgresChangesPayload<Record<string, unknown>>;

/**
 * Listens for DELETEs on `table` and for inserts into `rt_markers` (decks-fixture's
 * `addMarker`). Once a marker arrives, every change committed before it has been
 * delivered (or withheld) on this socket.
 */
export async function watchDeletes(client: SupabaseClient, name: string, table: string) {
  const deletes = collector<RowChange>();
  const markers = collector<string>();
  await subscribe(
    client
      .channel(name)
      .on("postgres_changes", { event: "DELETE", schema: "public", table }, (p) => deletes.push(p as RowChange))
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_markers" }, (p) =>
        markers.push(String((p.new as { label: string }).label)),
      ),
  );
  return { deletes, markers };
}

/** Subscribes and resolves on SUBSCRIBED; rejects with the channel's error otherwise. */
export function subscribe(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === "SUBSCRIBED") resolve(channel);
      else reject(error ?? new Error(status));
    });
  });
}

/** Collects values and waits for a count of them. */
export function collector<T>() {
  const items: T[] = [];
  const waiters: Array<() => void> = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const wake of waiters.splice(0)) wake();
    },
    async waitFor(count: number, timeoutMs = 20_000): Promise<T[]> {
      const deadline = Date.now() + timeoutMs;
      while (items.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${count} items, got ${items.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return items;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Match = { ref?: string; event?: string; topic?: string };
type ObjectFrame = { topic: string; event: string; payload: Record<string, unknown>; ref: string | null };
type ArrayFrame = [string | null, string | null, string, string, Record<string, unknown>];

/** A raw socket for protocol-level tests (what realtime-js would never send), its text frames decoded. */
async function openRawSocket<F>(url: string, fieldsOf: (frame: F) => Required<{ [K in keyof Match]: unknown }>) {
  const ws = new WebSocket(url);
  const frames = collector<F>();
  ws.on("message", (data, isBinary) => {
    if (!isBinary) frames.push(JSON.parse(data.toString()) as F);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    ws,
    frames,
    send(frame: unknown) {
      ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
    },
    /** The next frame (after those already seen) matching every given field. */
    async next(match: Match, timeoutMs = 20_000): Promise<F> {
      const deadline = Date.now() + timeoutMs;
      for (let seen = 0; ; seen++) {
        await frames.waitFor(seen + 1, Math.max(1, deadline - Date.now()));
        const frame = frames.items[seen] as F;
        const fields = fieldsOf(frame);
        const wanted = Object.entries(match) as Array<[keyof Match, string | undefined]>;
        if (wanted.every(([name, value]) => value === undefined || fields[name] === value)) return frame;
      }
    },
    close() {
      ws.close();
    },
  };
}

const socketUrl = (stack: RunningStack, query: string) =>
  `${stack.url.replace("http", "ws")}/realtime/v1/websocket?${query}`;

/** The HTTP status a socket's upgrade is refused with (the test fails if it connects). */
export const refusedUpgradeStatus = (stack: RunningStack, query: string) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(socketUrl(stack, query));
    ws.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    ws.on("open", () => reject(new Error("connected")));
    ws.on("error", () => undefined);
  });

/** A raw vsn 2.0.0 socket: `[join_ref, ref, topic, event, payload]` frames. */
export const rawSocket = (stack: RunningStack, apikey = stack.anonKey) =>
  openRawSocket<ArrayFrame>(socketUrl(stack, `apikey=${encodeURIComponent(apikey)}&vsn=2.0.0`), (frame) => ({
    ref: frame[1],
    topic: frame[2],
    event: frame[3],
  }));

/** A raw vsn 1.0.0 socket: JSON object frames both ways. `vsn` null leaves the parameter out. */
export const rawSocketV1 = (stack: RunningStack, vsn: string | null = "1.0.0") =>
  openRawSocket<ObjectFrame>(
    socketUrl(stack, `apikey=${encodeURIComponent(stack.anonKey)}${vsn === null ? "" : `&vsn=${vsn}`}`),
    (frame) => frame,
  );
