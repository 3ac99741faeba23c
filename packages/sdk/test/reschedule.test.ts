/**
 * Rescheduling after new FSRS parameters, through the real stack: a user's
 * imported Anki history is replayed with other parameters, every studied card
 * lands where @engram/core says in one call, and again changes nothing.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CardState } from "@engram/core";
import { rescheduleCards as replay } from "@engram/core/reschedule";
import { default_w } from "ts-fsrs";
import { beforeAll, describe, expect, it } from "vitest";
import type { EngramError } from "../src/errors.js";
import { importDeck, rescheduleCards } from "../src/transfer/index.js";
import { adminClient, type SignedIn, signedIn } from "./support/engram.js";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/anki/", import.meta.url));
const fixture = (name: string) => ({ name, data: new Uint8Array(readFileSync(`${fixtures}${name}`)) });
const admin = adminClient();

/** Parameters that remember better than FSRS-6's defaults: higher initial stabilities. */
const slowerForgetting = default_w.map((w, i) => (i < 4 ? w * 3 : w));

type Row = {
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

async function allRows<T>(table: "card_states" | "review_logs", columns: string, userId: string): Promise<T[]> {
  const rows: T[] = [];
  for (let from = 0; ; from += 1000) {
    const { data, error } = await admin
      .from(table)
      .select(columns)
      .eq("user_id", userId)
      .order(table === "card_states" ? "card_id" : "id")
      .range(from, from + 999);
    if (error) throw error;
    rows.push(...(data as T[]));
    if ((data ?? []).length < 1000) return rows;
  }
}

const statesOf = (userId: string) =>
  allRows<Row>(
    "card_states",
    "card_id, state, due, stability, difficulty, scheduled_days, last_review, suspended, version",
    userId,
  );

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    return error as EngramError;
  }
  throw new Error("expected a failure");
}

describe("rescheduleCards", () => {
  let user: SignedIn;
  let before: Row[];

  beforeAll(async () => {
    user = await signedIn("reschedule");
    await importDeck(user.engram, fixture("collection.apkg"), {
      target: { newDeckName: "History" },
      includeSchedule: true,
    });
    await user.engram.profile.update({ fsrs_params: slowerForgetting });
    before = await statesOf(user.account.id);
  });

  it("moves every studied card where the core's rescheduling puts it, in one call, and counts the moves", async () => {
    const now = new Date();
    const outcome = await rescheduleCards(user.engram, { parameters: slowerForgetting, now });
    const studied = before.filter((row) => row.state !== "new");
    expect(studied.length).toBeGreaterThan(50);
    expect(outcome.skipped).toBe(0);
    expect(outcome.earlier + outcome.later + outcome.unchanged).toBe(studied.length);
    // Better memory than the defaults the import scheduled with: most cards come due later.
    expect(outcome.later).toBeGreaterThan(outcome.earlier);

    const logs = await allRows<{
      card_id: string;
      rating: 1 | 2 | 3 | 4;
      reviewed_at: string;
      state: CardState;
      scheduled_days: number;
    }>("review_logs", "card_id, rating, reviewed_at, state, scheduled_days", user.account.id);
    const profile = await user.engram.profile.get();
    const expected = replay(
      studied.map((row) => ({
        cardId: row.card_id,
        state: row.state,
        due: new Date(row.due),
        stability: row.stability,
        difficulty: row.difficulty,
        scheduledDays: row.scheduled_days,
        lastReview: row.last_review ? new Date(row.last_review) : null,
        suspended: row.suspended,
      })),
      logs.map((log) => ({
        cardId: log.card_id,
        rating: log.rating,
        reviewedAt: new Date(log.reviewed_at),
        state: log.state,
        scheduledDays: log.scheduled_days,
      })),
      {
        parameters: slowerForgetting,
        desiredRetention: profile.desired_retention,
        timeZone: profile.timezone,
        dayStartHour: profile.day_starts_at,
        now,
      },
    );
    const after = new Map((await statesOf(user.account.id)).map((row) => [row.card_id, row]));
    let moved = 0;
    for (const schedule of expected) {
      const row = after.get(schedule.cardId);
      expect(row?.stability).toBeCloseTo(schedule.stability, 3);
      expect(row?.difficulty).toBeCloseTo(schedule.difficulty, 3);
      expect(row?.scheduled_days).toBe(schedule.scheduledDays);
      expect(Math.abs(Date.parse(row?.due ?? "") - schedule.due.getTime())).toBeLessThan(1000);
      if (schedule.moved) moved++;
    }
    expect(moved).toBeGreaterThan(0);
    // New cards are not touched.
    for (const row of before.filter((state) => state.state === "new")) expect(after.get(row.card_id)).toEqual(row);
  });

  it("changes nothing when run again with the same parameters", async () => {
    const settled = await statesOf(user.account.id);
    const again = await rescheduleCards(user.engram, { parameters: slowerForgetting });
    expect(again).toEqual({
      earlier: 0,
      later: 0,
      unchanged: settled.filter((row) => row.state !== "new").length,
      skipped: 0,
    });
    expect(await statesOf(user.account.id)).toEqual(settled);
  });

  it("refuses parameters that are not 21 numbers before sending anything", async () => {
    const settled = await statesOf(user.account.id);
    const error = await failure(rescheduleCards(user.engram, { parameters: [1, 2, 3] }));
    expect(error).toMatchObject({ code: "validation", field: "parameters" });
    expect(await statesOf(user.account.id)).toEqual(settled);
  });

  it("has nothing to do for someone who has studied nothing", async () => {
    const fresh = await signedIn("reschedule-fresh");
    expect(await rescheduleCards(fresh.engram, { parameters: null })).toEqual({
      earlier: 0,
      later: 0,
      unchanged: 0,
      skipped: 0,
    });
  });

  it("refuses another user's card ids at the server, whatever the client sends", async () => {
    const other = await signedIn("reschedule-other");
    const card = before.find((row) => row.state === "review") as Row;
    const { error } = await other.supabase.rpc("reschedule_cards", {
      p_schedules: [[card.card_id, card.version, 1, 9, 1]],
    });
    expect(error).toMatchObject({ code: "PT404", details: "card_id" });
  });
});
