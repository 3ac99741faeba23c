/**
 * A floor under an import's finish: the rows a 10,000-note deck with 100,000
 * answers becomes (notes, cards, schedules, answers), written straight into a
 * fresh database of the bench's engine in one transaction, with every index
 * and foreign-key check and no trigger. No finish can write them faster on
 * that engine, so an import's time less this is what the import's own work
 * (staging, checks, counts, realtime) costs.
 */
import { randomBytes } from "node:crypto";
import { type Database, openPglite, openPostgres, prepareDatabase } from "@engram/local-stack";
import { benchStackOptions } from "./stack-options.js";

const user = "00000000-0000-4000-8000-00000000f100";
const deck = "00000000-0000-4000-8000-00000000f1d0";

const rows = [
  [
    "10,000 notes",
    `insert into public.notes (id, deck_id, kind, fields, tags, created_by, source_guid)
     select md5('n' || i)::uuid, '${deck}', 'basic',
       jsonb_build_object('front', 'Question ' || i || ' <b>bold</b>', 'back', 'Answer ' || i),
       array['set' || (i % 20)], '${user}', 'g' || i
     from generate_series(1, 10000) i`,
  ],
  [
    "10,000 cards",
    `insert into public.cards (id, note_id, deck_id, ordinal)
     select md5('c' || i)::uuid, md5('n' || i)::uuid, '${deck}', 1 from generate_series(1, 10000) i`,
  ],
  [
    "10,000 schedules",
    `insert into public.card_states (user_id, card_id, deck_id, note_id, ordinal, state, due, stability,
       difficulty, reps, last_review, version)
     select '${user}', md5('c' || i)::uuid, '${deck}', md5('n' || i)::uuid, 1, 'review',
       now() + (i % 30) * interval '1 day', 20, 5, 10, now() - interval '10 days', 1
     from generate_series(1, 10000) i`,
  ],
  [
    "100,000 answers",
    `insert into public.review_logs (user_id, card_id, client_review_id, rating, state, due, stability,
       difficulty, elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at, duration_ms, previous)
     select '${user}', md5('c' || (i % 10000 + 1))::uuid, gen_random_uuid(), 3, 'review', now(), 20, 5, 3, 3, 3, 0,
       now() - interval '400 days' + i * interval '5 minutes', 4000,
       jsonb_build_object('imported', true, 'deck_id', '${deck}'::uuid)
     from generate_series(1, 100000) i`,
  ],
] as const;

async function writeRows(db: Database): Promise<{ step: string; ms: number }[]> {
  await prepareDatabase(db, { supabaseDir: benchStackOptions().supabaseDir, seed: false });
  await db.exec(`insert into auth.users (id, email, aud, role)
      values ('${user}', 'floor@example.test', 'authenticated', 'authenticated');
    insert into public.decks (id, owner_id, name) values ('${deck}', '${user}', 'Floor');`);
  const times: { step: string; ms: number }[] = [];
  await db.transaction(async (tx) => {
    // User triggers only: the foreign-key checks stay.
    await tx.exec(
      ["notes", "cards", "card_states", "review_logs"]
        .map((table) => `alter table public.${table} disable trigger user;`)
        .join("\n"),
    );
    for (const [step, sql] of rows) {
      const start = performance.now();
      await tx.exec(sql);
      times.push({ step, ms: performance.now() - start });
    }
  });
  return times;
}

/** Writes the rows on the bench's engine (PGlite in memory, or a scratch database on its server). */
export async function importFloor(): Promise<{ step: string; ms: number }[]> {
  const url = process.env.ENGRAM_BENCH_DATABASE_URL;
  if (!url) {
    const db = await openPglite();
    try {
      return await writeRows(db);
    } finally {
      await db.close();
    }
  }
  const name = `import_floor_${randomBytes(4).toString("hex")}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  const db = openPostgres({ connectionString: scratch.toString(), max: 1 });
  try {
    return await writeRows(db);
  } finally {
    await db.close();
    await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  }
}
