/**
 * "Reschedule cards on change": after new FSRS parameters are saved, every
 * studied card's memory state is replayed from its answers with them, and
 * review cards move to the interval that state asks for (Anki's rescheduling,
 * in @engram/core/reschedule). The work runs here; `reschedule_cards` applies
 * the result to the caller's schedules in one transaction.
 */
import type { CardState } from "@engram/core";
import { type CurrentSchedule, type RescheduleLog, rescheduleCards as replay } from "@engram/core/reschedule";
import type { Engram } from "../client.js";
import { EngramError } from "../errors.js";
import { run, runAllPages } from "../request.js";
import type { EngramClient } from "../supabase-client.js";

export type RescheduleOptions = {
  /** The 21 FSRS-6 weights to schedule with (the ones just saved), or null for the defaults. */
  parameters: readonly number[] | null;
  /** Today, from which study days are counted. Default now. */
  now?: Date;
};

export type RescheduleOutcome = {
  /** Cards now due earlier than before. */
  earlier: number;
  /** Cards now due later than before. */
  later: number;
  /** Studied cards whose due date stayed (learning, suspended, or the same day); their memory state may have changed. */
  unchanged: number;
  /** Cards answered on another device while this ran: left as that answer scheduled them. */
  skipped: number;
};

type StateRow = {
  user_id: string;
  card_id: string;
  state: CardState;
  due: string;
  stability: number;
  difficulty: number;
  scheduled_days: number;
  last_review: string | null;
  suspended: boolean;
  version: number;
};
type LogRow = { card_id: string; rating: 1 | 2 | 3 | 4; reviewed_at: string; state: CardState; scheduled_days: number };

function readStates(supabase: EngramClient): Promise<StateRow[]> {
  return runAllPages<StateRow>((from, to) =>
    supabase
      .from("card_states")
      .select("user_id, card_id, state, due, stability, difficulty, scheduled_days, last_review, suspended, version")
      .neq("state", "new")
      .order("card_id")
      .range(from, to),
  );
}

function readLogs(supabase: EngramClient): Promise<LogRow[]> {
  return runAllPages<LogRow>((from, to) =>
    supabase
      .from("review_logs")
      .select("card_id, rating, reviewed_at, state, scheduled_days")
      .order("reviewed_at")
      .order("id")
      .range(from, to),
  );
}

/** Four decimals keep the request for 100,000 cards within one request's size, and change no interval. */
const rounded = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Reschedules the caller's studied cards with `parameters` at their desired
 * retention, in one transaction. Cards in learning or relearning and
 * suspended cards get their new memory state but keep their due date, as in
 * Anki. Running it again with the same parameters changes nothing.
 */
export async function rescheduleCards(engram: Engram, options: RescheduleOptions): Promise<RescheduleOutcome> {
  const supabase = engram.supabase;
  const parameters = options.parameters;
  if (parameters !== null && (parameters.length !== 21 || !parameters.every(Number.isFinite))) {
    throw new EngramError("validation", "FSRS parameters must be 21 finite numbers.", {
      field: "parameters",
      rule: "fsrs_params",
    });
  }
  const [states, logs] = await Promise.all([readStates(supabase), readLogs(supabase)]);
  const userId = states[0]?.user_id;
  if (userId === undefined) return { earlier: 0, later: 0, unchanged: 0, skipped: 0 };
  const [profile] = await run(
    supabase.from("profiles").select("desired_retention, timezone, day_starts_at").eq("id", userId),
  );
  if (!profile) throw new EngramError("not-found", "Your profile could not be read.");

  const current = new Map(states.map((row) => [row.card_id, row]));
  const cards: CurrentSchedule[] = states.map((row) => ({
    cardId: row.card_id,
    state: row.state,
    due: new Date(row.due),
    stability: row.stability,
    difficulty: row.difficulty,
    scheduledDays: row.scheduled_days,
    lastReview: row.last_review === null ? null : new Date(row.last_review),
    suspended: row.suspended,
  }));
  const history: RescheduleLog[] = logs.map((row) => ({
    cardId: row.card_id,
    rating: row.rating,
    reviewedAt: new Date(row.reviewed_at),
    state: row.state,
    scheduledDays: row.scheduled_days,
  }));
  const schedules = replay(cards, history, {
    parameters,
    desiredRetention: profile.desired_retention,
    timeZone: profile.timezone,
    dayStartHour: profile.day_starts_at,
    ...(options.now ? { now: options.now } : {}),
  });

  // Only what changes travels; the rest is unchanged as it stands.
  const rows: [string, number, number, number, number | null][] = [];
  for (const schedule of schedules) {
    const row = current.get(schedule.cardId) as StateRow;
    const stability = rounded(schedule.stability);
    const difficulty = rounded(schedule.difficulty);
    const days = schedule.moved ? schedule.scheduledDays : null;
    const same =
      stability === row.stability &&
      difficulty === row.difficulty &&
      (days === null || (days === row.scheduled_days && schedule.due.getTime() === Date.parse(row.due)));
    if (!same) rows.push([schedule.cardId, row.version, stability, difficulty, days]);
  }
  const counts =
    rows.length === 0
      ? { earlier: 0, later: 0, unchanged: 0, skipped: 0 }
      : ((await run(supabase.rpc("reschedule_cards", { p_schedules: rows }))) as RescheduleOutcome);
  return { ...counts, unchanged: counts.unchanged + schedules.length - rows.length };
}
