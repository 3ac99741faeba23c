/**
 * The note browser's pages (`browse.page`, sorted and paged by the database):
 * ten representative searches (first page of 100, newest first, with the
 * total) and sorted pages in notes and cards mode (the first and one deep
 * page), on a deck of 10,000 notes (BENCH_BROWSE_NOTES for another size),
 * each timed 20 times (p50 and p95) on the local stack. Target: under 150 ms
 * at 10,000.
 *
 *   tsx --conditions=source bench/browse.ts
 *
 * ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL instead of PGlite.
 */

import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { BrowseOptions } from "../src/browse.js";
import { tablesAnalysed, writeSearchNotes } from "./support/search-deck.js";
import { signedInOnStack } from "./support/signed-in.js";

const noteCount = Number(process.env.BENCH_BROWSE_NOTES ?? 10_000);
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
  "deck:Browse* added:30 -is:suspended",
];
const sorted: [string, BrowseOptions][] = [
  ["notes by sort field", { sort: "sort_field", dir: "asc" }],
  ["notes by modified", { sort: "modified", dir: "desc" }],
  ["notes by due", { sort: "due", dir: "asc" }],
  ["notes by lapses", { sort: "lapses", dir: "desc" }],
  ["notes by retrievability", { sort: "retrievability", dir: "asc" }],
  ["notes by due, page 50", { sort: "due", dir: "asc", offset: Math.floor(noteCount / 2) }],
  ["cards by sort field", { mode: "cards", sort: "sort_field", dir: "asc" }],
  ["cards by due", { mode: "cards", sort: "due", dir: "asc" }],
  ["cards by lapses", { mode: "cards", sort: "lapses", dir: "desc" }],
  ["cards: mito by interval", { mode: "cards", search: "mito", sort: "interval", dir: "desc" }],
];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const { stack, engram } = await signedInOnStack("bench-browse");
try {
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const deck = await engram.decks.create({ name: "Browse bench" });
  const userId = deck.owner_id;
  const fill = performance.now();
  await writeSearchNotes(admin, deck.id, userId, noteCount);
  // A third of the cards under review with varied schedules, some due, some lapsed.
  const { data: cards, error } = await admin
    .from("cards")
    .select("id, note_id, ordinal")
    .eq("deck_id", deck.id)
    .limit(Math.ceil(noteCount / 3));
  if (error) throw error;
  for (let at = 0; at < cards.length; at += 500) {
    const states = cards.slice(at, at + 500).map((card, offset) => {
      const i = at + offset;
      return {
        user_id: userId,
        card_id: card.id,
        deck_id: deck.id,
        note_id: card.note_id,
        ordinal: card.ordinal,
        state: "review" as const,
        due: new Date(Date.now() + ((i % 40) - 10) * 86_400_000).toISOString(),
        scheduled_days: 1 + (i % 60),
        stability: 1 + (i % 90),
        difficulty: 1 + (i % 9),
        reps: 1 + (i % 20),
        lapses: i % 7,
        last_review: new Date(Date.now() - (i % 30) * 86_400_000).toISOString(),
      };
    });
    const upserted = await admin.from("card_states").upsert(states);
    if (upserted.error) throw upserted.error;
  }
  console.log(`${noteCount} notes written in ${((performance.now() - fill) / 1000).toFixed(1)} s`);
  const waited = performance.now();
  await tablesAnalysed(stack.stack.db);
  console.log(`tables analysed after ${((performance.now() - waited) / 1000).toFixed(1)} s more`);

  const time = async (label: string, options: BrowseOptions) => {
    const times: number[] = [];
    let total: number | null = null;
    let capped = false;
    for (let run = 0; run < runs; run += 1) {
      const start = performance.now();
      const page = await engram.browse.page(deck.id, { limit: 100, ...options });
      times.push(performance.now() - start);
      total = page.total;
      capped = page.capped;
    }
    const count = total === null ? "  (deep page)" : `${String(total).padStart(6)}${capped ? "+" : " "} rows`;
    console.log(
      `${label.padEnd(38)} ${count}   p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms`,
    );
  };
  for (const search of searches) await time(search, { search });
  for (const [label, options] of sorted) await time(label, options);
} finally {
  await stack.close();
}
