/**
 * Searching a deck's notes as the browser does (`notes.list` with Anki's
 * syntax: the first page of 50 with the total): ten representative searches
 * on a deck of 10,000 notes (BENCH_SEARCH_NOTES for another size), each timed
 * 20 times (p50 and p95) on the local stack. Target: under 150 ms.
 *
 *   pnpm --filter @engram/sdk bench   (or: tsx --conditions=source bench/search.ts)
 *
 * ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL instead of PGlite.
 */
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { tablesAnalysed, writeSearchNotes } from "./support/search-deck.js";
import { signedInOnStack } from "./support/signed-in.js";

const noteCount = Number(process.env.BENCH_SEARCH_NOTES ?? 10_000);
const runs = 20;
const searches = [
  "mito",
  "mitochondri*",
  '"powerhouse of the cell"',
  "tag:spanish",
  "front:word12*",
  "is:due",
  "prop:ivl>10",
  "-tag:spanish cell",
  "w:cell or re:mito.*ria",
  "deck:Search* added:30 -is:suspended",
];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const { stack, engram } = await signedInOnStack("bench-search");
try {
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const deck = await engram.decks.create({ name: "Search bench" });
  const userId = deck.owner_id;
  const fill = performance.now();
  await writeSearchNotes(admin, deck.id, userId, noteCount);
  // A tenth of the cards under review, some due, some suspended.
  const { data: cards, error } = await admin
    .from("cards")
    .select("id")
    .eq("deck_id", deck.id)
    .limit(Math.ceil(noteCount / 10));
  if (error) throw error;
  const ids = cards.map((card) => card.id);
  for (let at = 0; at < ids.length; at += 200) {
    const slice = ids.slice(at, at + 200);
    const due = new Date(Date.now() + ((at / 200) % 3 === 0 ? -86_400_000 : 5 * 86_400_000)).toISOString();
    const updated = await admin
      .from("card_states")
      .update({ state: "review", due, scheduled_days: 3 + (at / 200) * 4, stability: 9, difficulty: 5, reps: 3 })
      .in("card_id", slice);
    if (updated.error) throw updated.error;
  }
  console.log(`${noteCount} notes written in ${((performance.now() - fill) / 1000).toFixed(1)} s`);

  // The searches are timed once the tables are analysed, and one before, to
  // show what the first minute after such writes costs.
  const first = performance.now();
  await engram.notes.list(deck.id, { search: "front:word12*", limit: 50 });
  console.log(`front:word12* before the tables are analysed: ${(performance.now() - first).toFixed(0)} ms`);
  const waited = performance.now();
  await tablesAnalysed(stack.stack.db);
  console.log(`tables analysed after ${((performance.now() - waited) / 1000).toFixed(1)} s more`);

  for (const search of searches) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < runs; run += 1) {
      const start = performance.now();
      total = (await engram.notes.list(deck.id, { search, limit: 50 })).total;
      times.push(performance.now() - start);
    }
    console.log(
      `${search.padEnd(38)} ${String(total).padStart(6)} notes   p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms   (target < 150 ms)`,
    );
  }
} finally {
  await stack.close();
}
