import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addMember,
  addNamedCards,
  type CardState,
  createDeck,
  only,
  recordReview,
  type User,
  undoReview,
  updateProfile,
} from "./support/study-fixtures.js";

// review_stats and the rollup behind it (docs/product.md §2 /stats) on a small known
// history. Rosa studies in Kolkata (UTC+05:30) and her day starts at 05:00,
// so "today" at NOW is Tuesday 2026-03-10, from 2026-03-09T23:30Z to
// 2026-03-10T23:30Z: a day boundary on the half hour in UTC.

const NOW = "2026-03-10T12:00:00Z"; // 17:30 in Kolkata

let db: Database;
let rosa: User;
let olga: User;
let anatomy: string; // hers
let botany: string; // hers
let geology: string; // Olga's, Rosa is a viewer
let cards: Record<"a1" | "a2" | "a3" | "a4" | "a5" | "a6" | "b1" | "b2" | "g1", string>;

/**
 * An answer stored as the table owner, as an import or the service role
 * would: `interval` is the schedule's interval before the answer (maturity
 * needs 21 days or more).
 */
async function answer(
  user: User,
  cardId: string,
  rating: number,
  state: CardState,
  reviewedAt: string,
  options: { interval?: number; durationMs?: number } = {},
) {
  await db.query(
    `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
       elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
     values ($1, $2, gen_random_uuid(), $3, $4, $5, 10, 5, 0, 7, $5, $6, jsonb_build_object('scheduled_days', $7::int))`,
    [user.id, cardId, rating, state, reviewedAt, options.durationMs ?? 5000, options.interval ?? 0],
  );
}

beforeAll(async () => {
  db = await openTestDatabase();
  olga = await createUser(db, { displayName: "Olga" });
  rosa = await createUser(db, { displayName: "Rosa", timezone: "Asia/Kolkata" });
  await updateProfile(db, rosa, { day_starts_at: 5 });
  anatomy = await createDeck(db, rosa, { name: "Anatomy" });
  botany = await createDeck(db, rosa, { name: "Botany" });
  geology = await createDeck(db, olga, { name: "Geology" });
  await addMember(db, olga, geology, rosa, "viewer");
  cards = {
    ...(await addNamedCards(db, rosa, anatomy, ["a1", "a2", "a3", "a4", "a5", "a6"])),
    ...(await addNamedCards(db, rosa, botany, ["b1", "b2"])),
    ...(await addNamedCards(db, olga, geology, ["g1"])),
  };

  // Today, Mar 10 (Kolkata study days in the comments).
  await answer(rosa, cards.a1, 3, "review", "2026-03-10T10:00:00Z", { interval: 30, durationMs: 6000 }); // mature
  await answer(rosa, cards.a2, 1, "review", "2026-03-10T10:05:00Z", { interval: 5, durationMs: 4000 }); // young, again
  // a new card answered in the app at 14:30 her time
  await actAs(db, rosa, (tx) =>
    recordReview(tx, { cardId: cards.a3, expectedVersion: 0, reviewedAt: "2026-03-10T09:00:00Z", durationMs: 8000 }),
  );
  await answer(rosa, cards.a4, 3, "review", "2026-03-09T23:30:00Z", { interval: 10, durationMs: 3000 }); // 05:00: today
  await answer(rosa, cards.g1, 3, "review", "2026-03-10T11:00:00Z", { interval: 4 }); // Geology
  await answer(olga, cards.g1, 1, "review", "2026-03-10T11:00:00Z", { interval: 40 }); // Olga's: never Rosa's
  // Yesterday, Mar 9.
  await answer(rosa, cards.a5, 1, "review", "2026-03-09T23:29:00Z", { interval: 25, durationMs: 2000 }); // 04:59
  await answer(rosa, cards.a6, 2, "learning", "2026-03-09T12:00:00Z", { durationMs: 1000 });
  await answer(rosa, cards.b1, 4, "review", "2026-03-09T12:00:00Z", { interval: 60 }); // Botany
  // Earlier this week, this month, this quarter and this year.
  await answer(rosa, cards.a1, 3, "relearning", "2026-03-05T12:00:00Z", { durationMs: 7000 });
  await answer(rosa, cards.a2, 3, "review", "2026-03-05T12:00:00Z", { interval: 3 });
  await answer(rosa, cards.a1, 1, "review", "2026-02-15T12:00:00Z", { interval: 21 }); // 21 days: mature
  await answer(rosa, cards.a2, 2, "review", "2026-01-01T12:00:00Z", { interval: 20 }); // 20 days: young
  await answer(rosa, cards.a3, 3, "review", "2025-06-01T12:00:00Z", { interval: 90 });
  await answer(rosa, cards.a4, 3, "review", "2025-03-11T12:00:00Z", { interval: 90 }); // today - 364
  await answer(rosa, cards.a4, 1, "review", "2025-03-10T12:00:00Z", { interval: 90 }); // today - 365: out
});
afterAll(() => db.close());

type Stats = {
  today: string;
  days: number;
  per_day: Record<string, unknown>[];
  retention: {
    period: string;
    young: { passed: number; failed: number };
    mature: { passed: number; failed: number };
  }[];
  buttons: Record<string, number[]>;
};
const reviewStats = (tx: Queryable, options: { deckId?: string; days?: number | null; now?: string } = {}) =>
  tx
    .query<{ stats: Stats }>("select review_stats(p_deck_id => $1, p_days => $2, p_now => $3) as stats", [
      options.deckId ?? null,
      options.days === undefined ? 30 : options.days,
      options.now ?? NOW,
    ])
    .then((rows) => only(rows, "review_stats").stats);
const statsOf = (options: { deckId?: string; days?: number | null; now?: string } = {}) =>
  actAs(db, rosa, (tx) => reviewStats(tx, options));

const day = (date: string, counts: Partial<Record<CardState, number>>, durationMs: number) => ({
  date,
  new: counts.new ?? 0,
  learning: counts.learning ?? 0,
  review: counts.review ?? 0,
  relearning: counts.relearning ?? 0,
  duration_ms: durationMs,
});
const retention = (period: string, young: [number, number], mature: [number, number]) => ({
  period,
  young: { passed: young[0], failed: young[1] },
  mature: { passed: mature[0], failed: mature[1] },
});
const noRetention = (...periods: string[]) => periods.map((p) => retention(p, [0, 0], [0, 0]));

describe("review_stats", () => {
  test("sums up her decks over 30 days on known data", async () => {
    expect(await statsOf()).toEqual({
      today: "2026-03-10",
      days: 30,
      per_day: [
        day("2026-02-15", { review: 1 }, 5000),
        day("2026-03-05", { review: 1, relearning: 1 }, 12000),
        day("2026-03-09", { learning: 1, review: 2 }, 8000),
        day("2026-03-10", { new: 1, review: 4 }, 26000),
      ],
      retention: [
        retention("today", [2, 1], [1, 0]),
        retention("yesterday", [0, 0], [1, 1]),
        retention("week", [3, 1], [2, 1]),
        retention("month", [3, 1], [2, 2]),
        retention("year", [4, 1], [4, 2]),
      ],
      buttons: { learning: [0, 1, 2, 0], young: [1, 0, 3, 0], mature: [2, 0, 1, 1] },
    });
  });

  test("splits the study day at her day start in her timezone: 04:59 is yesterday, 05:00 today", async () => {
    const stats = await statsOf();
    // a5 at 04:59 on Mar 10 (mature, again) is yesterday's; a4 at 05:00 (young, good) today's.
    expect(stats.retention[1]).toEqual(retention("yesterday", [0, 0], [1, 1]));
    expect(stats.per_day).toContainEqual(day("2026-03-09", { learning: 1, review: 2 }, 8000));
    // At 04:59 on Mar 11 it is still Mar 10; at 05:00 Mar 11 begins.
    expect((await statsOf({ now: "2026-03-10T23:29:00Z" })).today).toBe("2026-03-10");
    const next = await statsOf({ now: "2026-03-10T23:30:00Z" });
    expect(next.today).toBe("2026-03-11");
    expect(next.retention.slice(0, 2)).toEqual([
      retention("today", [0, 0], [0, 0]),
      retention("yesterday", [2, 1], [1, 0]),
    ]);
  });

  test("90 and 365 days reach further back; a year is the last 365 study days", async () => {
    const quarter = await statsOf({ days: 90 });
    expect(quarter.days).toBe(90);
    expect(quarter.per_day[0]).toEqual(day("2026-01-01", { review: 1 }, 5000));
    expect(quarter.buttons.young).toEqual([1, 1, 3, 0]);
    const year = await statsOf({ days: 365 });
    expect(year.per_day.slice(0, 2)).toEqual([
      day("2025-03-11", { review: 1 }, 5000),
      day("2025-06-01", { review: 1 }, 5000),
    ]);
    expect(year.buttons).toEqual({ learning: [0, 1, 2, 0], young: [1, 1, 3, 0], mature: [2, 0, 3, 1] });
  });

  test("for one deck, counts only that deck's answers", async () => {
    expect(await statsOf({ deckId: botany })).toEqual({
      today: "2026-03-10",
      days: 30,
      per_day: [day("2026-03-09", { review: 1 }, 5000)],
      retention: [
        ...noRetention("today"),
        retention("yesterday", [0, 0], [1, 0]),
        retention("week", [0, 0], [1, 0]),
        retention("month", [0, 0], [1, 0]),
        retention("year", [0, 0], [1, 0]),
      ],
      buttons: { learning: [0, 0, 0, 0], young: [0, 0, 0, 0], mature: [0, 0, 0, 1] },
    });
    expect((await statsOf({ deckId: geology })).per_day).toEqual([day("2026-03-10", { review: 1 }, 5000)]);
  });

  test("leaving a deck drops its figures", async () => {
    const result = await probeAs(db, rosa, async (tx) => {
      await tx.query("delete from deck_members where deck_id = $1 and user_id = auth.uid()", [geology]);
      return reviewStats(tx);
    });
    expect(result.ok && result.value.per_day.at(-1)).toEqual(day("2026-03-10", { new: 1, review: 3 }, 21000));
    expect(result.ok && result.value.retention[0]).toEqual(retention("today", [1, 1], [1, 0]));
  });

  test("an answer counts at once, and undoing it takes it off again", async () => {
    const before = await statsOf();
    const clientReviewId = randomUUID();
    const result = await probeAs(db, rosa, async (tx) => {
      await recordReview(tx, {
        cardId: cards.b2,
        clientReviewId,
        expectedVersion: 0,
        reviewedAt: "2026-03-10T11:30:00Z",
        durationMs: 2500,
        rating: 1,
      });
      const answered = await reviewStats(tx);
      await undoReview(tx, clientReviewId);
      return { answered, undone: await reviewStats(tx) };
    });
    if (!result.ok) throw result.error;
    expect(result.value.answered.per_day.at(-1)).toEqual(day("2026-03-10", { new: 2, review: 4 }, 28500));
    expect(result.value.answered.buttons.learning).toEqual([1, 1, 2, 0]);
    expect(result.value.undone).toEqual(before);
  });

  test("an import's answers appear in the imported deck's figures", async () => {
    const imported = (rating: number, reviewedAt: string, elapsedDays: number) => ({
      client_review_id: randomUUID(),
      rating,
      state: "review",
      due: reviewedAt,
      stability: 20,
      difficulty: 5,
      elapsed_days: elapsedDays,
      last_elapsed_days: 0,
      scheduled_days: 30,
      learning_steps: 0,
      reviewed_at: reviewedAt,
      duration_ms: 3000,
    });
    const result = await probeAs(db, rosa, async (tx) => {
      const [job] = await tx.query<{ id: string; deck_id: string }>(
        `select id, deck_id from start_import(p_job_id => $1, p_source => 'apkg', p_total => 1, p_deck_id => null,
           p_deck_name => 'Imported', p_options => '{}')`,
        [randomUUID()],
      );
      if (!job) throw new Error("no import job");
      const note = {
        guid: "imported-1",
        kind: "basic",
        fields: { front: "Q", back: "A" },
        tags: [],
        cards: [
          {
            ordinal: 1,
            // an answer after 25 days counts as mature (no stored schedule), after 3 young
            reviews: [imported(3, "2026-03-08T12:00:00Z", 25), imported(1, "2026-03-09T12:00:00Z", 3)],
          },
        ],
      };
      await tx.query("select stage_import(p_job_id => $1, p_batch => 0, p_payload => $2, p_processed => 1)", [
        job.id,
        JSON.stringify({ notes: [note] }),
      ]);
      await tx.query("select finish_import(p_job_id => $1, p_summary => '{}')", [job.id]);
      return reviewStats(tx, { deckId: job.deck_id });
    });
    if (!result.ok) throw result.error;
    expect(result.value.per_day).toEqual([
      day("2026-03-08", { review: 1 }, 3000),
      day("2026-03-09", { review: 1 }, 3000),
    ]);
    expect(result.value.retention[2]).toEqual(retention("week", [0, 1], [1, 0]));
  });

  test("shows another user nothing of hers", async () => {
    const other = await createUser(db);
    expect(await actAs(db, other, (tx) => reviewStats(tx))).toEqual({
      today: "2026-03-10",
      days: 30,
      per_day: [],
      retention: noRetention("today", "yesterday", "week", "month", "year"),
      buttons: { learning: [0, 0, 0, 0], young: [0, 0, 0, 0], mature: [0, 0, 0, 0] },
    });
    // Olga's own answer on the shared card is hers alone.
    expect((await actAs(db, olga, (tx) => reviewStats(tx))).retention[0]).toEqual(retention("today", [0, 0], [0, 1]));
  });

  test("all time (null days) starts at her first answer's study day, for her decks or one", async () => {
    const all = await statsOf({ days: null });
    // The first answer, today − 365, is the one a year leaves out.
    expect(all.days).toBe(366);
    expect(all.per_day[0]).toEqual(day("2025-03-10", { review: 1 }, 5000));
    expect(all.buttons.mature).toEqual([3, 0, 3, 1]);
    expect(all.retention).toEqual((await statsOf({ days: 365 })).retention);
    const botanyAll = await statsOf({ deckId: botany, days: null });
    expect({ days: botanyAll.days, per_day: botanyAll.per_day }).toEqual({
      days: 2,
      per_day: [day("2026-03-09", { review: 1 }, 5000)],
    });
    const newcomer = await createUser(db, { displayName: "Nina" });
    expect(await actAs(db, newcomer, (tx) => reviewStats(tx, { days: null }))).toMatchObject({ days: 1, per_day: [] });
  });

  test("refuses a period other than 30, 90 or 365 days or all time (22023 days)", async () => {
    for (const days of [7, 0, 366]) {
      const result = await probeAs(db, rosa, (tx) => reviewStats(tx, { days }));
      expect(result).toMatchObject({ ok: false, error: { code: "22023", detail: "days" } });
    }
  });

  test("does not find a deck she does not belong to (PT404 deck_id)", async () => {
    const othersDeck = await createDeck(db, olga, { name: "Olga's own" });
    for (const deckId of [randomUUID(), othersDeck]) {
      const result = await probeAs(db, rosa, (tx) => reviewStats(tx, { deckId }));
      expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "deck_id" } });
    }
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => reviewStats(tx));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("the review rollup", () => {
  test("is not readable through the API", async () => {
    for (const table of [
      "private.review_counts",
      "private.review_deck_counts",
      "private.review_decks",
      "private.review_log_decks",
    ]) {
      const result = await probeAs(db, rosa, (tx) => tx.query(`select * from ${table}`));
      expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
    }
  });

  test("equals a direct count of the logs after a mixed workload", async () => {
    const [c1, c2, c3] = await addNamedCards(db, rosa, botany, ["m1", "m2", "m3"]).then(Object.values);
    const ids = Array.from({ length: 4 }, () => randomUUID());
    await actAs(db, rosa, async (tx) => {
      await recordReview(tx, { cardId: c1 ?? "", clientReviewId: ids[0], expectedVersion: 0 });
      await recordReview(tx, { cardId: c2 ?? "", clientReviewId: ids[1], expectedVersion: 0, rating: 1 });
      await recordReview(tx, { cardId: c3 ?? "", clientReviewId: ids[2], expectedVersion: 0, durationMs: 900 });
      await recordReview(tx, {
        cardId: c1 ?? "",
        clientReviewId: ids[3],
        expectedVersion: 1,
        reviewedAt: new Date(Date.now() - 30_000),
      });
      await undoReview(tx, ids[3] ?? "");
    });
    // Many answers in one statement, some in one quarter hour.
    await db.query(
      `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
         elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
       select $1, c.id, gen_random_uuid(), 1 + g % 4, (array['new','learning','review','relearning'])[1 + g % 3]::card_state,
              now(), 5, 5, g % 40, 7, timestamptz '2026-01-01 00:00Z' + make_interval(mins => g * 7), 100 * g, '{}'
       from generate_series(1, 400) g cross join (select id from cards where deck_id = $2) c`,
      [rosa.id, anatomy],
    );
    // A card moved to another deck, then that deck deleted; a deleted note and
    // deck take their answers with them; a service-role edit moves some.
    await actAs(db, rosa, async (tx) => {
      const [note] = await tx.query<{ note_id: string }>("select note_id from cards where id = $1", [cards.a1]);
      await tx.query("select move_notes(p_note_ids => $1, p_deck_id => $2)", [[note?.note_id], botany]);
    });
    await db.query("delete from decks where id = $1", [botany]);
    await db.query("delete from notes where id = (select note_id from cards where id = $1)", [cards.a6]);
    await db.query("update review_logs set reviewed_at = reviewed_at - interval '3 days' where card_id = $1", [
      cards.a2,
    ]);
    await db.query("delete from decks where id = $1", [geology]);

    const logsByDeck = `
      select l.user_id, coalesce((l.previous ->> 'deck_id')::uuid, n.deck_id) as deck_id,
             private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
             private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature,
             count(*)::int as reviews, sum(l.duration_ms)::bigint as duration_ms
      from review_logs l left join private.review_log_decks n on n.log_id = l.id
      group by 1, 2, 3, 4, 5, 6`;
    const total = await db.query(
      `select user_id, slot, state, rating, mature, sum(reviews)::int as reviews, sum(duration_ms)::bigint as duration_ms
       from (${logsByDeck}) l group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
    );
    expect(total.length).toBeGreaterThan(100);
    expect(
      await db.query(
        "select user_id, slot, state, rating, mature, reviews, duration_ms from private.review_counts order by 1, 2, 3, 4, 5",
      ),
    ).toEqual(total);
    const byDeck = await db.query(
      `select l.* from (${logsByDeck}) l join decks d on d.id = l.deck_id order by 1, 2, 3, 4, 5, 6`,
    );
    expect(byDeck.length).toBeGreaterThan(100);
    expect(await db.query("select * from private.review_deck_counts order by 1, 2, 3, 4, 5, 6")).toEqual(byDeck);
    const [unlisted] = await db.query<{ n: number }>(
      `select count(*)::int as n from private.review_deck_counts c
       where not exists (select 1 from private.review_decks k where k.user_id = c.user_id and k.deck_id = c.deck_id)`,
    );
    expect(unlisted).toEqual({ n: 0 });
    // Every log's deck is known, and the notes of logs no longer there are gone too.
    const [orphans] = await db.query<{ n: number }>(
      `select (select count(*) from review_logs l left join private.review_log_decks n on n.log_id = l.id
               where coalesce((l.previous ->> 'deck_id')::uuid, n.deck_id) is null)::int
            + (select count(*) from private.review_log_decks n where not exists (
                 select 1 from review_logs l where l.id = n.log_id))::int as n`,
    );
    expect(orphans).toEqual({ n: 0 });
  });
});
