/** The calls a studying user makes, each as its own PostgREST-style request. */
import { randomUUID } from "node:crypto";
import { type CardSchedule, createScheduler, nextSchedule, type Rating, type Scheduler } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { workload } from "./config.js";
import type { Account } from "./load.js";
import { asUser, type Sample, sample } from "./measure.js";

export interface QueueRow extends CardSchedule {
  position: number;
  queue: "learning" | "review" | "new";
  card_id: string;
  deck_id: string;
  version: number;
}

export const studyQueueSql = "select * from public.study_queue($1::uuid)";

export function fetchQueue(db: Database, account: Account, deckId: string | null = null): Promise<QueueRow[]> {
  return asUser(db, account, (tx) => tx.query<QueueRow>(studyQueueSql, [deckId]));
}

/** study_queue() for all decks, or for each deck in turn. */
export function benchStudyQueue(db: Database, account: Account, perDeck: boolean): Promise<Sample> {
  let i = 0;
  return sample(workload.warmupCalls, workload.measuredCalls, async (measure) => {
    const deckId = perDeck ? (account.deckIds[i++ % account.deckIds.length] ?? null) : null;
    const rows = await asUser(db, account, (tx) => measure(() => tx.query<QueueRow>(studyQueueSql, [deckId])));
    if (rows.length === 0) throw new Error(`study_queue(${deckId ?? ""}) returned no cards`);
  });
}

export const recordReviewSql = `
  select * from public.record_review(
    p_card_id => $1::uuid, p_client_review_id => $2::uuid, p_rating => $3::smallint,
    p_reviewed_at => $4::timestamptz, p_duration_ms => $5::integer, p_expected_version => $6::integer,
    p_state => $7::public.card_state, p_due => $8::timestamptz, p_stability => $9::double precision,
    p_difficulty => $10::double precision, p_elapsed_days => $11::integer, p_scheduled_days => $12::integer,
    p_learning_steps => $13::integer, p_reps => $14::integer, p_lapses => $15::integer)`;

/**
 * Answers cards in queue order, as the study screen does: the next schedule
 * comes from @engram/core (FSRS-6), the expected version from the queue row.
 */
export async function benchRecordReview(db: Database, account: Account): Promise<Sample & { answered: number }> {
  const scheduler = createScheduler();
  let queue: QueueRow[] = [];
  let answered = 0;
  const result = await sample(workload.warmupCalls, workload.measuredCalls, async (measure) => {
    if (queue.length === 0) queue = await fetchQueue(db, account);
    const card = queue.shift();
    if (!card) throw new Error("the study queue is empty");
    const params = answerParams(scheduler, card, pickRating(), new Date());
    const [row] = await asUser(db, account, (tx) =>
      measure(() => tx.query<{ version: number }>(recordReviewSql, params)),
    );
    if (row?.version !== card.version + 1) throw new Error(`record_review did not store the answer to ${card.card_id}`);
    answered++;
  });
  return { ...result, answered };
}

/** record_review's arguments for answering `card` with `rating` at `now`, scheduled by FSRS-6. */
export function answerParams(scheduler: Scheduler, card: QueueRow, rating: Rating, now: Date): unknown[] {
  const { schedule } = nextSchedule(scheduler, card, rating, now);
  return [
    card.card_id,
    randomUUID(),
    rating,
    now.toISOString(),
    3_000 + Math.floor(Math.random() * 12_000),
    card.version,
    schedule.state,
    schedule.due.toISOString(),
    schedule.stability,
    schedule.difficulty,
    Math.round(schedule.elapsed_days),
    Math.round(schedule.scheduled_days),
    schedule.learning_steps,
    schedule.reps,
    schedule.lapses,
  ];
}

/**
 * A floor under study_queue(): the same rows, read back from a table. It is
 * what sending the day's queue costs before any of it is worked out.
 */
export async function benchQueueRowsFloor(db: Database, account: Account): Promise<Sample> {
  await asUser(db, account, (tx) =>
    tx.exec("create temporary table bench_queue_rows as select * from public.study_queue(null)"),
  );
  try {
    return await sample(workload.warmupCalls, workload.measuredCalls, async (measure) => {
      const rows = await asUser(db, account, (tx) => measure(() => tx.query("select * from pg_temp.bench_queue_rows")));
      if (rows.length === 0) throw new Error("no queue rows to read back");
    });
  } finally {
    await db.exec("drop table if exists pg_temp.bench_queue_rows");
  }
}

/**
 * A floor under record_review: the same answers with the schedule's and the
 * answer's own triggers (counts, realtime) switched off; foreign-key checks
 * stay. Switched by the table's owner, outside the calls: a setting such as
 * session_replication_role would re-plan every statement at every call.
 */
export async function benchRecordReviewWithoutTriggers(db: Database, account: Account): Promise<Sample> {
  const tables = ["public.card_states", "public.review_logs"];
  await db.exec(tables.map((table) => `alter table ${table} disable trigger user;`).join("\n"));
  try {
    return await benchRecordReview(db, account);
  } finally {
    await db.exec(tables.map((table) => `alter table ${table} enable trigger user;`).join("\n"));
  }
}

/** A floor under every call: one schedule row read by its key, through RLS. */
export function benchOneRowFloor(db: Database, account: Account, cardId: string): Promise<Sample> {
  return sample(workload.warmupCalls, workload.measuredCalls, async (measure) => {
    const rows = await asUser(db, account, (tx) =>
      measure(() =>
        tx.query("select * from public.card_states where user_id = $1 and card_id = $2", [account.userId, cardId]),
      ),
    );
    if (rows.length !== 1) throw new Error(`no schedule of card ${cardId}`);
  });
}

/** Again 10%, Hard 15%, Good 65%, Easy 10%. */
function pickRating(): Rating {
  const r = Math.random();
  return r < 0.1 ? 1 : r < 0.25 ? 2 : r < 0.9 ? 3 : 4;
}

/** The stats the dashboard and the stats screen read, each as one request. */
export const statsSql = {
  "user_stats()": "select public.user_stats() as result",
  "user_stats(deck)": "select public.user_stats($1::uuid) as result",
  "review_stats(365)": "select public.review_stats(p_days => 365) as result",
  "deck_stats()": "select count(*) as result from public.deck_stats()",
} as const;
export type StatsOperation = keyof typeof statsSql;

/** One stats RPC; the per-deck form cycles through the decks. */
export function benchStats(db: Database, account: Account, operation: StatsOperation): Promise<Sample> {
  const sql = statsSql[operation];
  let i = 0;
  return sample(workload.warmupCalls, workload.measuredCalls, async (measure) => {
    const params = sql.includes("$1") ? [account.deckIds[i++ % account.deckIds.length]] : [];
    const [row] = await asUser(db, account, (tx) => measure(() => tx.query<{ result: unknown }>(sql, params)));
    if (!row?.result) throw new Error(`${operation} returned nothing`);
  });
}
