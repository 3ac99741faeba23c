import { default_w, FSRSAlgorithm, generatorParameters, get_fuzz_range } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { type CurrentSchedule, type RescheduleLog, type RescheduleSettings, rescheduleCards } from "./reschedule";

const dayMs = 86_400_000;
const now = new Date("2024-06-01T12:00:00Z");
const settings: RescheduleSettings = { parameters: null, desiredRetention: 0.9, timeZone: "UTC", dayStartHour: 4, now };

const log = (
  cardId: string,
  iso: string,
  rating: RescheduleLog["rating"],
  state: RescheduleLog["state"],
  scheduledDays: number,
): RescheduleLog => ({ cardId, rating, reviewedAt: new Date(iso), state, scheduledDays });

const card = (cardId: string, patch: Partial<CurrentSchedule> = {}): CurrentSchedule => ({
  cardId,
  state: "review",
  due: new Date("2024-05-25T10:00:00Z"),
  stability: 8,
  difficulty: 5,
  scheduledDays: 15,
  lastReview: new Date("2024-05-10T10:00:00Z"),
  suspended: false,
  ...patch,
});

// Answered Good as new, Good 3 days later, Good 7 days after that.
const history = [
  log("a", "2024-04-30T10:00:00Z", 3, "new", 3),
  log("a", "2024-05-03T10:00:00Z", 3, "review", 7),
  log("a", "2024-05-10T10:00:00Z", 3, "review", 15),
];

function algorithm(w: readonly number[], retention: number) {
  return new FSRSAlgorithm(generatorParameters({ w: [...w], request_retention: retention, enable_fuzz: true }));
}

describe("rescheduleCards", () => {
  it("replays a known history into the memory state and the interval ts-fsrs gives for it", () => {
    const [schedule] = rescheduleCards([card("a")], history, settings);
    const fsrs = algorithm(default_w, 0.9);
    let memory = fsrs.next_state(null, 0, 3);
    memory = fsrs.next_state(memory, 3, 3);
    memory = fsrs.next_state(memory, 7, 3);
    expect(schedule?.stability).toBeCloseTo(memory.stability, 8);
    expect(schedule?.difficulty).toBeCloseTo(memory.difficulty, 8);

    const unfuzzed = Math.round(memory.stability * fsrs.interval_modifier);
    // The card had 7 days before its last answer (Good): the new interval is at least 8.
    const { min_ivl, max_ivl } = get_fuzz_range(unfuzzed, 7, 36500);
    expect(schedule?.scheduledDays).toBeGreaterThanOrEqual(min_ivl);
    expect(schedule?.scheduledDays).toBeLessThanOrEqual(max_ivl);
    fsrs.seed = `a:${Date.parse("2024-05-10T10:00:00Z")}`;
    expect(schedule?.scheduledDays).toBe(fsrs.next_interval(memory.stability, 7));
    expect(schedule?.due).toEqual(
      new Date(Date.parse("2024-05-10T10:00:00Z") + (schedule?.scheduledDays ?? 0) * dayMs),
    );
    expect(schedule?.moved).toBe(true);
  });

  it("gives the same schedule every time, so a retry changes nothing", () => {
    expect(rescheduleCards([card("a")], history, settings)).toEqual(rescheduleCards([card("a")], history, settings));
  });

  it("schedules further out for a lower desired retention and with parameters that forget more slowly", () => {
    const at = (patch: Partial<RescheduleSettings>) =>
      rescheduleCards([card("a")], history, { ...settings, ...patch })[0]?.scheduledDays ?? 0;
    expect(at({ desiredRetention: 0.8 })).toBeGreaterThan(at({ desiredRetention: 0.95 }));
    const slowerForgetting = [...default_w];
    slowerForgetting[2] = (slowerForgetting[2] as number) * 3; // Good's initial stability
    expect(at({ parameters: slowerForgetting })).toBeGreaterThan(at({}));
  });

  it("updates the memory state of learning, relearning and suspended cards but keeps their due", () => {
    const due = new Date("2024-05-10T10:10:00Z");
    const cards = [card("a", { state: "relearning", due, scheduledDays: 0 }), card("b", { suspended: true, due })];
    const logs = [...history, ...history.map((entry) => ({ ...entry, cardId: "b" }))];
    const schedules = rescheduleCards(cards, logs, settings);
    expect(schedules).toHaveLength(2);
    for (const schedule of schedules) {
      expect(schedule.moved).toBe(false);
      expect(schedule.due).toEqual(due);
      expect(schedule.stability).not.toBe(8);
    }
    expect(schedules[0]?.scheduledDays).toBe(0);
    expect(schedules[1]?.scheduledDays).toBe(15);
  });

  it("keeps the memory state of a card whose answers as new are not in its history, and schedules from it", () => {
    const partial = [log("a", "2024-05-10T10:00:00Z", 3, "review", 15)];
    const [schedule] = rescheduleCards([card("a", { stability: 40, difficulty: 6 })], partial, settings);
    expect(schedule).toMatchObject({ stability: 40, difficulty: 6, moved: true });
    const { min_ivl, max_ivl } = get_fuzz_range(Math.round(40 * algorithm(default_w, 0.9).interval_modifier), 0, 36500);
    expect(schedule?.scheduledDays).toBeGreaterThanOrEqual(min_ivl);
    expect(schedule?.scheduledDays).toBeLessThanOrEqual(max_ivl);
  });

  it("leaves out cards never studied and cards with nothing to schedule from", () => {
    const cards = [
      card("new", { state: "new", lastReview: null, stability: 0, difficulty: 0 }),
      card("bare", { stability: 0, difficulty: 0 }),
    ];
    expect(rescheduleCards(cards, [], settings)).toEqual([]);
  });

  it("counts from the last answer, so an overdue card may come due in the past, as in Anki", () => {
    const lastReview = new Date("2023-01-01T10:00:00Z");
    const partial = [log("a", lastReview.toISOString(), 3, "review", 30)];
    const [schedule] = rescheduleCards([card("a", { lastReview, stability: 30 })], partial, settings);
    expect(schedule?.due.getTime()).toBe(lastReview.getTime() + (schedule?.scheduledDays ?? 0) * dayMs);
    expect(schedule?.due.getTime()).toBeLessThan(now.getTime());
  });

  it("does not let fuzz shorten an interval that did not grow but still falls in the fuzz range", () => {
    // The answer before last set 40 days; the new stability asks for about 38: fuzz may not go below 40.
    const fsrs = algorithm(default_w, 0.9);
    const stability = 38 / fsrs.interval_modifier;
    const logs = [log("a", "2024-03-01T10:00:00Z", 3, "review", 40), log("a", "2024-04-10T10:00:00Z", 3, "review", 41)];
    for (let i = 0; i < 20; i++) {
      const cardId = `card-${i}`;
      const [schedule] = rescheduleCards(
        [card(cardId, { stability, difficulty: 5, lastReview: new Date("2024-04-10T10:00:00Z") })],
        logs.map((entry) => ({ ...entry, cardId })),
        settings,
      );
      expect(schedule?.scheduledDays).toBeGreaterThanOrEqual(40);
    }
  });
});
