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
import type { Queryable } from "@engram/local-stack";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
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

const words = ["cell", "membrane", "protein", "enzyme", "nucleus", "osmosis", "ribosome", "gene", "water", "energy"];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** Waits until none of `tables` is due for autovacuum's analyse (more than 50 rows + 10 % changed). */
async function tablesAnalysed(db: Queryable, tables: string[]) {
  for (;;) {
    const due = await db.query(
      `select 1 from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = 'public' and s.relname = any($1)
          and s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)`,
      [tables],
    );
    if (due.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const { stack, engram } = await signedInOnStack("bench-search");
try {
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const deck = await engram.decks.create({ name: "Search bench" });
  const userId = deck.owner_id;
  const fill = performance.now();
  for (let at = 0; at < noteCount; at += 500) {
    const rows = Array.from({ length: Math.min(500, noteCount - at) }, (_, offset) => {
      const i = at + offset;
      const topic = i % 100 === 0 ? "Mitochondria, the powerhouse of the cell" : words[i % words.length];
      return {
        deck_id: deck.id,
        kind: "basic" as const,
        fields: {
          front: `<b>Word${i}</b> ${topic}`,
          back: `A ${words[(i * 7) % words.length]} and a ${words[(i * 3) % words.length]}, note ${i}.`,
        },
        tags: i % 4 === 0 ? ["spanish::verbs"] : ["biology"],
        created_by: userId,
      };
    });
    const inserted = await admin.from("notes").insert(rows);
    if (inserted.error) throw inserted.error;
  }
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

  // A user's 10,000 notes arrive by import, which analyses the tables it grew.
  // Written through REST here, they are analysed when autovacuum (on PGlite,
  // the stack in its place) next looks; the searches are timed after that,
  // and one before it, to show what the first minute after such writes costs.
  const first = performance.now();
  await engram.notes.list(deck.id, { search: "front:word12*", limit: 50 });
  console.log(`front:word12* before the tables are analysed: ${(performance.now() - first).toFixed(0)} ms`);
  const waited = performance.now();
  await tablesAnalysed(stack.stack.db, ["notes", "cards", "card_states"]);
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
