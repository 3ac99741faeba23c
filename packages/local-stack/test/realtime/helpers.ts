import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";
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

/** A raw vsn 2.0.0 socket for protocol-level tests (what realtime-js would never send). */
export async function rawSocket(stack: RunningStack, apikey = stack.anonKey) {
  const url = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  const frames = collector<unknown[]>();
  ws.on("message", (data, isBinary) => {
    if (!isBinary) frames.push(JSON.parse(data.toString()) as unknown[]);
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
    /** The next frame (after those already seen) matching `ref` or `event`. */
    async next(match: { ref?: string; event?: string; topic?: string }, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (let seen = 0; ; seen++) {
        await frames.waitFor(seen + 1, Math.max(1, deadline - Date.now()));
        const frame = frames.items[seen] as [string | null, string | null, string, string, Record<string, unknown>];
        if (
          (match.ref === undefined || frame[1] === match.ref) &&
          (match.event === undefined || frame[3] === match.event) &&
          (match.topic === undefined || frame[2] === match.topic)
        ) {
          return frame;
        }
      }
    },
    close() {
      ws.close();
    },
  };
}

type ObjectFrame = { topic: string; event: string; payload: Record<string, unknown>; ref: string | null };

/** A raw vsn 1.0.0 socket: JSON object frames both ways. `vsn` null leaves the parameter out. */
export async function rawSocketV1(stack: RunningStack, vsn: string | null = "1.0.0") {
  const query = `apikey=${encodeURIComponent(stack.anonKey)}${vsn === null ? "" : `&vsn=${vsn}`}`;
  const ws = new WebSocket(`${stack.url.replace("http", "ws")}/realtime/v1/websocket?${query}`);
  const frames = collector<ObjectFrame>();
  ws.on("message", (data) => frames.push(JSON.parse(data.toString()) as ObjectFrame));
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
    async next(match: { ref?: string; event?: string; topic?: string }, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (let seen = 0; ; seen++) {
        await frames.waitFor(seen + 1, Math.max(1, deadline - Date.now()));
        const frame = frames.items[seen] as ObjectFrame;
        if (
          (match.ref === undefined || frame.ref === match.ref) &&
          (match.event === undefined || frame.event === match.event) &&
          (match.topic === undefined || frame.topic === match.topic)
        ) {
          return frame;
        }
      }
    },
    close() {
      ws.close();
    },
  };
}
