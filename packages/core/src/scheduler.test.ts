import { describe, expect, test } from "vitest";
import {
  type CardSchedule,
  createScheduler,
  formatInterval,
  newCardSchedule,
  nextSchedule,
  previewIntervals,
  Rating,
} from "./scheduler";

const minute = 60_000;
const day = 24 * 60 * minute;
const now = new Date("2025-06-01T12:00:00Z");
const scheduler = createScheduler();

/** A review card last seen 20 days ago with 20 days of stability: due today. */
function reviewCard(overrides: Partial<CardSchedule> = {}): CardSchedule {
  return {
    state: "review",
    due: now,
    stability: 20,
    difficulty: 5,
    elapsed_days: 10,
    scheduled_days: 20,
    learning_steps: 0,
    reps: 6,
    lapses: 0,
    last_review: new Date(now.getTime() - 20 * day),
    ...overrides,
  };
}

describe("new cards", () => {
  test("start as new, due now, with no history", () => {
    expect(newCardSchedule(now)).toEqual({
      state: "new",
      due: now,
      stability: 0,
      difficulty: 0,
      elapsed_days: 0,
      scheduled_days: 0,
      learning_steps: 0,
      reps: 0,
      lapses: 0,
      last_review: null,
    });
  });

  test("answered Again go to learning for the 1 minute step", () => {
    const { schedule } = nextSchedule(scheduler, null, Rating.again, now);
    expect([schedule.state, schedule.due.getTime() - now.getTime()]).toEqual(["learning", minute]);
  });

  test("answered Good go to learning for the 10 minute step", () => {
    const { schedule } = nextSchedule(scheduler, null, Rating.good, now);
    expect(schedule).toMatchObject({ state: "learning", learning_steps: 1, reps: 1, last_review: now });
    expect(schedule.due.getTime() - now.getTime()).toBe(10 * minute);
  });

  test("answered Easy skip learning and are due a day or more later", () => {
    const { schedule } = nextSchedule(scheduler, null, Rating.easy, now);
    expect(schedule.state).toBe("review");
    expect(schedule.scheduled_days).toBeGreaterThanOrEqual(1);
    expect(schedule.due.getTime() - now.getTime()).toBe(schedule.scheduled_days * day);
  });
});

describe("learning cards", () => {
  test("answered Good on the last step graduate to review", () => {
    const learning = nextSchedule(scheduler, null, Rating.good, now).schedule;
    const later = new Date(now.getTime() + 10 * minute);
    expect(nextSchedule(scheduler, learning, Rating.good, later).schedule.state).toBe("review");
  });
});

describe("review cards", () => {
  test("answered Again lapse into relearning for 10 minutes", () => {
    const { schedule } = nextSchedule(scheduler, reviewCard({ lapses: 2 }), Rating.again, now);
    expect(schedule).toMatchObject({ state: "relearning", lapses: 3 });
    expect(schedule.due.getTime() - now.getTime()).toBe(10 * minute);
  });

  test("answered Good stay in review with a longer interval", () => {
    const { schedule } = nextSchedule(scheduler, reviewCard(), Rating.good, now);
    expect(schedule.state).toBe("review");
    expect(schedule.scheduled_days).toBeGreaterThan(20);
  });

  test("never get an interval past 36500 days, even where ts-fsrs adds a day past it", () => {
    // Found by a sweep: ts-fsrs alone schedules Good at 36501 days here.
    const at = new Date("2027-03-06T05:00:00Z");
    const card = reviewCard({
      stability: 36500,
      difficulty: 6,
      reps: 10,
      last_review: new Date(at.getTime() - 36500 * day),
    });
    const { schedule } = nextSchedule(scheduler, card, Rating.good, at);
    expect([schedule.scheduled_days, schedule.due.getTime() - at.getTime()]).toEqual([36500, 36500 * day]);
  });

  test("keep every answer within 36500 days across many review times", () => {
    const longest = Array.from({ length: 300 }, (_, index) => {
      const at = new Date(now.getTime() + index * 7 * 3_600_000);
      const card = reviewCard({
        stability: 1e6,
        difficulty: 1 + (index % 9),
        last_review: new Date(at.getTime() - 36500 * day),
      });
      return Math.max(
        ...[Rating.hard, Rating.good, Rating.easy].map(
          (r) => nextSchedule(scheduler, card, r, at).schedule.scheduled_days,
        ),
      );
    });
    expect(Math.max(...longest)).toBeLessThanOrEqual(36500);
  });
});

describe("review log", () => {
  test("records the state and due before the answer and the memory after it", () => {
    const before = reviewCard();
    const { schedule, log } = nextSchedule(scheduler, before, Rating.hard, now);
    expect(log).toEqual({
      rating: Rating.hard,
      state: "review",
      due: before.due,
      stability: schedule.stability,
      difficulty: schedule.difficulty,
      elapsed_days: 20,
      scheduled_days: schedule.scheduled_days,
      reviewed_at: now,
    });
  });
});

describe("settings", () => {
  test("a higher desired retention gives shorter intervals", () => {
    const strict = createScheduler({ desiredRetention: 0.97 });
    const relaxed = createScheduler({ desiredRetention: 0.8 });
    const days = (s: typeof scheduler) =>
      nextSchedule(
        s,
        reviewCard({ stability: 100, last_review: new Date(now.getTime() - 100 * day) }),
        Rating.good,
        now,
      ).schedule.scheduled_days;
    expect(days(strict)).toBeLessThan(days(scheduler));
    expect(days(scheduler)).toBeLessThan(days(relaxed));
  });

  test("custom parameters change the schedule", () => {
    const custom = createScheduler({
      params: [
        1, 2, 5, 10, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575, 0.1192, 1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315,
        2.9898, 0.51655, 0.6621, 0.06, 0.1542,
      ],
    });
    const easyDays = (s: typeof scheduler) => nextSchedule(s, null, Rating.easy, now).schedule.scheduled_days;
    expect(easyDays(custom)).not.toBe(easyDays(scheduler));
  });

  test("rejects parameter lists that are not 21 finite numbers", () => {
    expect(() => createScheduler({ params: [1, 2, 3] })).toThrow(RangeError);
    expect(() => createScheduler({ params: Array.from({ length: 21 }, () => Number.NaN) })).toThrow(RangeError);
  });

  test("rejects a desired retention outside 0–1", () => {
    expect(() => createScheduler({ desiredRetention: 1.2 })).toThrow(RangeError);
  });
});

describe("fuzz", () => {
  test("is seeded from the inputs, so the same answer gives the same schedule", () => {
    const first = nextSchedule(createScheduler(), reviewCard(), Rating.good, now);
    const second = nextSchedule(createScheduler(), reviewCard(), Rating.good, now);
    expect(second).toEqual(first);
  });

  test("spreads equal cards answered at different times over several days", () => {
    const intervals = new Set(
      Array.from({ length: 40 }, (_, index) => {
        const at = new Date(now.getTime() + index * 3_600_000);
        return nextSchedule(
          scheduler,
          reviewCard({ stability: 100, last_review: new Date(at.getTime() - 100 * day) }),
          Rating.good,
          at,
        ).schedule.scheduled_days;
      }),
    );
    expect(intervals.size).toBeGreaterThan(1);
  });
});

describe("previewIntervals", () => {
  test("orders a review card's options Again < Hard < Good < Easy", () => {
    const preview = previewIntervals(scheduler, reviewCard(), now);
    const dues = [preview[1], preview[2], preview[3], preview[4]].map((p) => p.due.getTime());
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
    expect(new Set(dues).size).toBe(4);
  });

  test("labels a new card's options with the learning steps", () => {
    const preview = previewIntervals(scheduler, null, now);
    expect([preview[1].label, preview[2].label, preview[3].label]).toEqual(["1m", "6m", "10m"]);
  });

  test("matches what answering would do", () => {
    const preview = previewIntervals(scheduler, reviewCard(), now);
    expect(preview[3].due).toEqual(nextSchedule(scheduler, reviewCard(), Rating.good, now).schedule.due);
  });
});

describe("formatInterval", () => {
  test.each([
    [30_000, "<1m"],
    [minute, "1m"],
    [10 * minute, "10m"],
    [59 * minute + 29_000, "59m"],
    [59 * minute + 30_000, "1h"],
    [90 * minute, "1.5h"],
    [day, "1d"],
    [3 * day, "3d"],
    [29.96 * day, "1mo"],
    [105 * day, "3.5mo"],
    [364 * day, "1y"],
    [438 * day, "1.2y"],
    [36500 * day, "100y"],
  ])("formats %d ms as %s", (ms, label) => {
    expect(formatInterval(ms)).toBe(label);
  });
});
