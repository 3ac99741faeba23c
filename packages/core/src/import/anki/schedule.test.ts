import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEmptyCard, Rating as EngineRating, fsrs } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { readAnkiPackage } from "./read-package";
import { type ImportedReview, scheduleFromAnki } from "./schedule";
import type { AnkiCard, AnkiPackage, AnkiReview, AnkiSchedule } from "./types";

const fixtures = fileURLToPath(new URL("../../../../../../shared/fixtures/anki/", import.meta.url));
// [file, whether it holds any review history]
const files: [string, boolean][] = [
  ["simple-spanish-w-audio.colpkg.apkg", false],
  ["bg-hashtable.colpkg", false],
  ["BarRonPcAp.colpkg", true],
  ["spoken-languages__english__Vocab__2023.apkg", true],
  ["collection.apkg", true],
  ["spoken-languages-pc-2-dec-21.apkg", false],
];

const day = 86_400_000;
const createdAt = new Date("2024-01-01T04:30:00Z");
const collection: AnkiPackage["collection"] = { createdAt, schedulerVersion: 2 };
const now = new Date("2024-03-01T12:00:00Z");

function ankiCard(schedule: Partial<AnkiSchedule>): AnkiCard {
  return {
    ankiCardId: 7,
    ankiOrdinal: 0,
    ordinal: 1,
    deckName: "Default",
    suspended: false,
    buried: false,
    ankiSchedule: { type: 2, queue: 2, due: 60, ivl: 10, factor: 2500, reps: 3, lapses: 0, ...schedule },
  };
}

function review(at: Date, rating: AnkiReview["rating"], type: number, intervalDays: number): AnkiReview {
  return {
    ankiReviewId: at.getTime(),
    ankiCardId: 7,
    reviewedAt: at,
    rating,
    durationMs: 5000,
    type,
    intervalDays,
    lastIntervalDays: 0,
    factor: 2500,
  };
}

const t0 = new Date("2024-02-01T09:00:00Z");
const t1 = new Date(t0.getTime() + 10 * 60_000);
const t2 = new Date(t0.getTime() + 3 * day);
const threeGood = [review(t2, 3, 1, 8), review(t0, 3, 0, -600), review(t1, 3, 0, 3)];

describe("scheduleFromAnki", () => {
  it("replays three good answers to the memory state ts-fsrs computes itself", () => {
    const engine = fsrs({ enable_fuzz: false, enable_short_term: true });
    let card = createEmptyCard(t0);
    const expected: { stability: number; difficulty: number }[] = [];
    for (const at of [t0, t1, t2]) {
      card = engine.next(card, at, EngineRating.Good).card;
      expected.push({ stability: card.stability, difficulty: card.difficulty });
    }

    const { schedule, reviews } = scheduleFromAnki(ankiCard({}), threeGood, collection, { now });

    expect(reviews.map((r) => ({ stability: r.stability, difficulty: r.difficulty }))).toEqual(expected);
    expect(schedule?.stability).toBe(card.stability);
    expect(schedule?.difficulty).toBe(card.difficulty);
    expect(schedule?.last_review).toEqual(t2);
  });

  it("logs each answer in time order with the state and due it had before", () => {
    const { reviews } = scheduleFromAnki(ankiCard({}), threeGood, collection, { now });
    const rows = reviews.map(
      (r): Partial<ImportedReview> => ({
        ankiReviewId: r.ankiReviewId,
        state: r.state,
        due: r.due,
        elapsed_days: r.elapsed_days,
        last_elapsed_days: r.last_elapsed_days,
        scheduled_days: r.scheduled_days,
      }),
    );
    expect(rows).toEqual([
      { ankiReviewId: t0.getTime(), state: "new", due: t0, elapsed_days: 0, last_elapsed_days: 0, scheduled_days: 0 },
      {
        ankiReviewId: t1.getTime(),
        state: "learning",
        due: t1,
        elapsed_days: 0,
        last_elapsed_days: 0,
        scheduled_days: 3,
      },
      {
        ankiReviewId: t2.getTime(),
        state: "review",
        due: new Date(t1.getTime() + 3 * day),
        elapsed_days: 3,
        last_elapsed_days: 0,
        scheduled_days: 8,
      },
    ]);
  });

  it("dates a review card from the collection's creation day plus its due day number", () => {
    const { schedule } = scheduleFromAnki(ankiCard({ due: 45, ivl: 10 }), threeGood, collection, { now });
    expect(schedule?.state).toBe("review");
    expect(schedule?.due).toEqual(new Date(createdAt.getTime() + 45 * day));
    expect(schedule?.scheduled_days).toBe(10);
    expect(schedule?.elapsed_days).toBe(26);
  });

  it("dates a learning card from its due in epoch seconds", () => {
    const dueSeconds = Math.floor(t1.getTime() / 1000) + 600;
    const card = ankiCard({ type: 1, queue: 1, due: dueSeconds, ivl: 0 });
    const { schedule } = scheduleFromAnki(card, threeGood.slice(1, 2), collection, { now });
    expect(schedule?.state).toBe("learning");
    expect(schedule?.due).toEqual(new Date(dueSeconds * 1000));
    expect(schedule?.scheduled_days).toBe(0);
  });

  it("dates a day-learning card (queue 3) from its day number", () => {
    const card = ankiCard({ type: 3, queue: 3, due: 40, ivl: 2 });
    const { schedule } = scheduleFromAnki(card, threeGood, collection, { now });
    expect(schedule?.state).toBe("relearning");
    expect(schedule?.due).toEqual(new Date(createdAt.getTime() + 40 * day));
  });

  it("leaves a new card new, with its history logged", () => {
    const { schedule, reviews } = scheduleFromAnki(ankiCard({ type: 0, queue: 0, due: 5 }), threeGood, collection);
    expect(schedule).toBeNull();
    expect(reviews).toHaveLength(3);
  });

  it("approximates the memory of an SM-2 card without history from its interval and ease", () => {
    const card = ankiCard({ due: 70, ivl: 20, factor: 1300, reps: 9, lapses: 2 });
    const { schedule, reviews } = scheduleFromAnki(card, [], collection, { now });
    expect(reviews).toEqual([]);
    expect(schedule).toMatchObject({ state: "review", stability: 20, difficulty: 10, reps: 9, lapses: 2 });
    expect(schedule?.last_review).toEqual(new Date(createdAt.getTime() + 50 * day));
    const easy = scheduleFromAnki(ankiCard({ ivl: 0, factor: 3500 }), [], collection, { now }).schedule;
    expect(easy).toMatchObject({ stability: 0.1, difficulty: 1 });
  });

  it("keeps manual and rescheduled rows out of the replay and the log", () => {
    const manual = [review(new Date(t0.getTime() + day), 3, 4, 30), review(new Date(t0.getTime() + 2 * day), 4, 5, 60)];
    const plain = scheduleFromAnki(ankiCard({}), threeGood, collection, { now });
    const withManual = scheduleFromAnki(ankiCard({}), [...threeGood, ...manual], collection, { now });
    expect(withManual).toEqual(plain);
  });

  it("starts the memory over when a reset card is learned again", () => {
    const t3 = new Date(t2.getTime() + 5 * day);
    const relearned = scheduleFromAnki(ankiCard({}), [...threeGood, review(t3, 3, 0, 1)], collection, { now });
    const fresh = scheduleFromAnki(ankiCard({}), [review(t3, 3, 0, 1)], collection, { now });
    expect(relearned.reviews.at(-1)).toEqual(fresh.reviews[0]);
    expect(relearned.schedule?.stability).toBe(fresh.schedule?.stability);
  });

  it("seeds a history that starts mid-way from SM-2 and marks its first answer with the card's state", () => {
    const first = { ...review(t2, 3, 1, 20), lastIntervalDays: 9 };
    const { reviews } = scheduleFromAnki(ankiCard({}), [first], collection, { now });
    expect(reviews[0]).toMatchObject({ state: "review", elapsed_days: 9 });
    expect(reviews[0]?.stability).toBeGreaterThan(9);
  });

  it("clamps durations to an hour", () => {
    const long = { ...review(t0, 3, 0, -600), durationMs: 9_000_000 };
    const negative = { ...review(t1, 3, 0, 1), durationMs: -5 };
    const { reviews } = scheduleFromAnki(ankiCard({}), [long, negative], collection, { now });
    expect(reviews.map((r) => r.duration_ms)).toEqual([3_600_000, 0]);
  });
});

function inBounds(value: number, min: number, max: number): boolean {
  return Number.isFinite(value) && value >= min && value <= max;
}

describe.each(files)("every studied card of %s", (file, hasHistory) => {
  it("gets finite memory states and dates within the database's bounds", async () => {
    const pkg = await readAnkiPackage(new Uint8Array(readFileSync(`${fixtures}${file}`)));
    const byCard = new Map<number, AnkiReview[]>();
    for (const r of pkg.reviews) byCard.set(r.ankiCardId, [...(byCard.get(r.ankiCardId) ?? []), r]);
    expect(pkg.reviews.every((r) => r.rating >= 1 && r.rating <= 4)).toBe(true);
    let studied = 0;
    for (const card of pkg.notes.flatMap((n) => n.cards)) {
      const history = byCard.get(card.ankiCardId) ?? [];
      if (history.length === 0 && card.ankiSchedule.type === 0) continue;
      studied++;
      const { schedule, reviews } = scheduleFromAnki(card, history, pkg.collection, { now });
      expect(reviews.length).toBe(history.filter((r) => r.type <= 3).length);
      for (const r of reviews) {
        expect(inBounds(r.stability, 0.001, 36500), `${card.ankiCardId} S ${r.stability}`).toBe(true);
        expect(inBounds(r.difficulty, 1, 10), `${card.ankiCardId} D ${r.difficulty}`).toBe(true);
        expect(inBounds(r.elapsed_days, 0, 36500) && inBounds(r.last_elapsed_days, 0, 36500)).toBe(true);
        expect(inBounds(r.scheduled_days, 0, 36500) && Number.isInteger(r.scheduled_days)).toBe(true);
        expect(inBounds(r.duration_ms, 0, 3_600_000)).toBe(true);
        expect(Number.isFinite(r.due.getTime()) && Number.isFinite(r.reviewed_at.getTime())).toBe(true);
      }
      if (schedule === null) continue;
      expect(inBounds(schedule.stability, 0.001, 36500)).toBe(true);
      expect(inBounds(schedule.difficulty, 1, 10)).toBe(true);
      expect(inBounds(schedule.scheduled_days, 0, 36500)).toBe(true);
      expect(inBounds(schedule.elapsed_days, 0, Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(schedule.reps >= 0 && schedule.lapses >= 0).toBe(true);
      const last = schedule.last_review?.getTime() ?? Number.NaN;
      expect(Number.isFinite(last) && Number.isFinite(schedule.due.getTime())).toBe(true);
      expect(schedule.due.getTime()).toBeLessThanOrEqual(last + 36500 * day);
    }
    expect(studied > 0).toBe(hasHistory);
  });
});
