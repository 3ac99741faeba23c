// A deck of 10,000 notes with 100,000 answers imported through the API as a
// signed-in user meets it on the platform: every request runs under the
// role's statement_timeout (authenticated: 8 s). Into a new deck finish_import
// commits a batch a call, as the SDK asks; a finish in one call (into an
// existing deck) runs under the function's own, which PostgREST applies to the
// request in place of the role's (a function's SET clause alone would not lift
// a timer already running). On DATABASE_URL's server the timeouts cancel;
// PGlite cannot cancel a statement, so there the file checks the import's rows only.

import { randomUUID } from "node:crypto";
import { liftAuthRateLimits, openPostgres, type RunningStack, startStack } from "@engram/local-stack";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { withDatabase } from "./support/global-setup.js";
import { supabaseDir } from "./support/paths.js";

const noteCount = 10_000;
const reviewsPerCard = 10;
/** 500 notes of ten answers are about 1.7 MB of JSON a batch, within the 4 MiB the server takes. */
const notesPerBatch = 500;
const day = 86_400_000;

// supabase-js builds its realtime client eagerly and Node 20 has no WebSocket; this file opens none.
class NoRealtime {
  constructor() {
    throw new Error("This file uses no realtime");
  }
}
const transport = ((globalThis as { WebSocket?: unknown }).WebSocket ?? NoRealtime) as never;

let stack: RunningStack;
let databaseUrl: string | undefined;
let dropDatabase = async () => {};

beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `engram_import_scale_${randomUUID().replaceAll("-", "")}`;
    const admin = openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`create database ${name}`);
    databaseUrl = withDatabase(url, name);
    dropDatabase = async () => {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    };
  }
  stack = await startStack({
    supabaseDir,
    dataDir: null,
    port: 0,
    seed: false,
    configure: liftAuthRateLimits,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await dropDatabase();
});

function client(key: string): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport },
  });
}

function stagedNote(i: number, now: number) {
  const reviews = [];
  let at = now - 400 * day + (i % 1000) * 60_000;
  let interval = 1;
  for (let r = 0; r < reviewsPerCard; r += 1) {
    // As @engram/sdk stages an answer: a tuple in finish_import's order.
    reviews.push([
      randomUUID(),
      r > 0 && (i + r) % 9 === 0 ? 1 : 3,
      r === 0 ? "new" : "review",
      new Date(at + interval * day).toISOString(),
      interval + 0.5,
      5,
      interval,
      interval,
      interval,
      0,
      new Date(at).toISOString(),
      4000,
    ]);
    interval = Math.min(Math.round(interval * 1.8) + 1, 30);
    at += interval * day;
  }
  return {
    guid: `scale-${i}`,
    kind: "basic",
    fields: { front: `Question ${i} <b>bold</b>`, back: `Answer ${i}` },
    tags: [`set${i % 20}`],
    cards: [
      {
        ordinal: 1,
        suspended: false,
        buried_until: null,
        schedule: {
          state: "review",
          due: new Date(now + (i % 30) * day).toISOString(),
          stability: 20,
          difficulty: 5,
          elapsed_days: 10,
          scheduled_days: 30,
          learning_steps: 0,
          reps: reviewsPerCard,
          lapses: 1,
          last_review: new Date(now - 10 * day).toISOString(),
        },
        reviews,
      },
    ],
  };
}

test("10,000 notes with 100,000 answers are imported through the API within the platform's timeouts", async () => {
  const admin = client(stack.serviceRoleKey);
  const email = `importer-${randomUUID().slice(0, 8)}@example.test`;
  const password = "import-at-scale-password";
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error("no user");
  const user = client(stack.anonKey);
  const session = await user.auth.signInWithPassword({ email, password });
  if (session.error) throw session.error;

  const jobId = randomUUID();
  const started = await user.rpc("start_import", {
    p_job_id: jobId,
    p_source: "apkg",
    p_total: noteCount,
    p_deck_name: "At scale",
  });
  expect(started.error).toBeNull();
  const now = Date.now();
  for (let batch = 0; batch * notesPerBatch < noteCount; batch += 1) {
    const notes = Array.from({ length: notesPerBatch }, (_, k) => stagedNote(batch * notesPerBatch + k, now));
    const staged = await user.rpc("stage_import", {
      p_job_id: jobId,
      p_batch: batch,
      p_payload: { notes },
      p_processed: (batch + 1) * notesPerBatch,
    });
    expect(staged.error).toBeNull();
  }
  // As the SDK finishes an import into a new deck: steps of about a quarter
  // of a second each (a batch, or part of one on a slower server), then the
  // call that reveals it.
  const lastBatch = noteCount / notesPerBatch - 1;
  let steps = 0;
  for (let reached = -1; reached < lastBatch; steps += 1) {
    const step = await user.rpc("finish_import", { p_job_id: jobId, p_one_batch: true });
    expect(step.error).toBeNull();
    expect(step.data?.status).toBe("running");
    const finishing = step.data?.finishing as { batch: number; offset: number };
    expect([finishing.batch, finishing.offset]).not.toEqual([reached, 0]);
    reached = finishing.batch;
  }
  expect(steps).toBeGreaterThanOrEqual(lastBatch + 1);
  const finished = await user.rpc("finish_import", { p_job_id: jobId, p_summary: {} });
  expect(finished.error).toBeNull();
  expect(finished.data).toMatchObject({
    status: "done",
    summary: { notes_added: noteCount, cards: noteCount, reviews_added: noteCount * reviewsPerCard },
  });

  // Finishing again returns the job and adds nothing.
  const again = await user.rpc("finish_import", { p_job_id: jobId, p_summary: {} });
  expect(again.data).toMatchObject({ status: "done", summary: { notes_added: noteCount } });
  const reviews = await user.from("review_logs").select("id", { count: "exact", head: true });
  expect(reviews.count).toBe(noteCount * reviewsPerCard);

  // The import analysed the tables it grew, so the next search is planned
  // for 10,000 notes rather than for the empty tables it started from.
  const analysed = await stack.stack.db.query<{ relname: string; reltuples: number; manual: boolean }>(
    `select c.relname, c.reltuples, s.last_analyze is not null as manual
       from pg_class c join pg_stat_user_tables s on s.relid = c.oid
      where c.oid in ('public.notes'::regclass, 'public.cards'::regclass,
                      'public.card_states'::regclass, 'public.review_logs'::regclass)
      order by c.relname`,
  );
  expect(analysed.map((row) => [row.relname, row.manual, row.reltuples >= noteCount])).toEqual([
    ["card_states", true, true],
    ["cards", true, true],
    ["notes", true, true],
    ["review_logs", true, true],
  ]);
  expect(analysed.find((row) => row.relname === "review_logs")?.reltuples).toBeGreaterThanOrEqual(
    noteCount * reviewsPerCard,
  );

  if (databaseUrl) {
    // The timeouts the import ran under: the platform's for the role, and
    // finish_import's own within the API's 60 s maximum.
    const db = openPostgres({ connectionString: databaseUrl, max: 1 });
    try {
      const [timeouts] = await db.query<{ role: string[]; finish: string[] }>(
        `select (select rolconfig from pg_roles where rolname = 'authenticated') as role,
                (select proconfig from pg_proc where oid = 'public.finish_import(uuid, jsonb, boolean)'::regprocedure) as finish`,
      );
      expect(timeouts?.role).toContain("statement_timeout=8s");
      expect(timeouts?.finish).toContain("statement_timeout=60s");
    } finally {
      await db.close();
    }
  }
}, 600_000);
