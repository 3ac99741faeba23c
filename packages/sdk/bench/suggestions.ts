/**
 * Suggestions on the local stack through the SDK in Node: a deck's review
 * queue holding 1,000 pending suggestions (`suggestions.pending`), and the time
 * from a viewer's `suggest` to the maintainer's realtime message.
 *
 *   pnpm --filter @engram/sdk bench
 *
 * Prints p50 and p95 over 20 runs of each, beside their targets (300 ms, 1 s).
 */
import { performance } from "node:perf_hooks";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { createEngram } from "../src/client.js";
import type { Database } from "../src/database.types.js";
import { signedInOnStack } from "./support/signed-in.js";

const queueSize = 1000;
const authors = 10;
const runs = 20;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const report = (label: string, values: number[], target: number) =>
  console.log(
    `${label.padEnd(35)}p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms (target < ${target} ms)`,
  );

const { stack, engram: owner } = await signedInOnStack("suggestions-owner");
const options = { auth: { persistSession: false }, realtime: { transport: WebSocket as never } };
const admin = createClient<Database>(stack.url, stack.serviceRoleKey, options);

async function member(deckId: string, name: string) {
  const account = { email: `${name}-${Date.now()}@example.test`, password: "bench-password-1" };
  const created = await admin.auth.admin.createUser({ ...account, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error("no user");
  const joined = await admin
    .from("deck_members")
    .insert({ deck_id: deckId, user_id: created.data.user.id, role: "viewer" });
  if (joined.error) throw joined.error;
  const engram = createEngram(createClient<Database>(stack.url, stack.anonKey, options));
  await engram.auth.signIn(account);
  return { engram, id: created.data.user.id };
}

try {
  const deck = await owner.decks.create({ name: "Review queue" });
  const notes = Array.from({ length: queueSize }, (_, i) => ({
    deck_id: deck.id,
    kind: "basic" as const,
    fields: { front: `Question ${i}`, back: `Answer ${i}` },
  }));
  const inserted = await admin.from("notes").insert(notes).select("id, fields, tags, version");
  if (inserted.error) throw inserted.error;

  // 1,000 pending edits from ten viewers (100 each, the most one author may have waiting in a deck),
  // written directly: the SDK's own limit of 20 a minute would make this take an hour.
  const viewers = await Promise.all(Array.from({ length: authors }, (_, i) => member(deck.id, `viewer-${i}`)));
  const rows = inserted.data.map((note, i) => ({
    deck_id: deck.id,
    note_id: note.id,
    author_id: viewers[i % authors]?.id ?? "",
    action: "edit" as const,
    kind: "basic" as const,
    fields: { ...(note.fields as Record<string, string>), back: `Better answer ${i}` },
    tags: note.tags,
    rationale: `Reason ${i}`,
    base_version: note.version,
    base_fields: note.fields,
    base_tags: note.tags,
    created_at: new Date(Date.now() - 3_600_000 + i).toISOString(),
  }));
  const seeded = await admin.from("note_suggestions").insert(rows);
  if (seeded.error) throw seeded.error;

  const queueTimes: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const queue = await owner.suggestions.pending(deck.id);
    queueTimes.push(performance.now() - started);
    if (queue.length !== queueSize) throw new Error(`the queue held ${queue.length} suggestions`);
  }
  report(`review queue (${queueSize} pending)`, queueTimes, 300);

  // suggest → the maintainer's realtime message, one suggestion at a time.
  const suggester = await member(deck.id, "suggester");
  let arrived: (() => void) | null = null;
  let ready: () => void = () => {};
  const subscribed = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const stop = owner.suggestions.onDeckChanges(
    deck.id,
    (event) => {
      if (event.type === "insert") arrived?.();
    },
    { onReady: () => ready() },
  );
  await subscribed;
  const latencies: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const heard = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const started = performance.now();
    await suggester.engram.suggestions.suggest({
      action: "create",
      deckId: deck.id,
      kind: "basic",
      fields: { front: `Suggested ${run}`, back: "Back" },
    });
    await heard;
    latencies.push(performance.now() - started);
  }
  report("suggest → maintainer's message", latencies, 1000);
  await stop();
} finally {
  await stack.close();
}
