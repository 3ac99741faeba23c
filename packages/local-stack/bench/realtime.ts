import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { type RunningStack, startStack } from "../src/server.js";
import { ms, stats } from "./measure.js";

// The conformance suite's project streams `rt_notes` (owner-only RLS) through supabase_realtime.
const fixtureDir = fileURLToPath(new URL("../test/fixtures/supabase/", import.meta.url));
const changes = 200;

/** Commit → delivery latency of postgres_changes, with 1 and with 100 subscribers (each checked by RLS). */
export async function realtimeLatency(databaseUrl?: string): Promise<void> {
  const running = await startStack({ supabaseDir: fixtureDir, dataDir: null, port: 0, databaseUrl });
  try {
    console.log(`\n== realtime postgres_changes (${databaseUrl ? "PostgreSQL" : "PGlite"})`);
    for (const subscribers of [1, 100]) {
      const samples = await latency(running, subscribers);
      const s = stats(samples);
      console.log(
        `  ${String(subscribers).padStart(3)} subscriber(s): p50 ${ms(s.p50)}  p95 ${ms(s.p95)}   target p95 < 50 ms with 100`,
      );
    }
  } finally {
    await running.close();
  }
}

async function latency(running: RunningStack, subscribers: number): Promise<number[]> {
  const owner = randomUUID();
  await running.stack.db.query(
    "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
    [owner, `${owner}@example.test`],
  );
  const token = await running.stack.keys.sign({
    sub: owner,
    role: "authenticated",
    aud: "authenticated",
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  let received = 0;
  let allReceived: () => void = () => {};
  const clients: SupabaseClient[] = [];
  const channels: RealtimeChannel[] = [];
  for (let i = 0; i < subscribers; i++) {
    const client = createClient(running.url, running.anonKey, {
      accessToken: async () => token,
      realtime: { transport: WebSocket as never },
    });
    await client.realtime.setAuth(token);
    const channel = client
      .channel(`bench-${owner}-${i}`)
      .on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "rt_notes", filter: `owner_id=eq.${owner}` },
        () => {
          received += 1;
          if (received === subscribers) allReceived();
        },
      );
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status, error) => (status === "SUBSCRIBED" ? resolve() : reject(error ?? new Error(status)))),
    );
    clients.push(client);
    channels.push(channel);
  }
  const samples: number[] = [];
  for (let i = 0; i < changes; i++) {
    received = 0;
    const delivered = new Promise<void>((resolve) => {
      allReceived = resolve;
    });
    const start = performance.now();
    await running.stack.db.query("insert into public.rt_notes (owner_id, title) values ($1, $2)", [owner, `n${i}`]);
    await delivered;
    samples.push(performance.now() - start);
  }
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  return samples;
}
