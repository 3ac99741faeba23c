import { describe, expect, it } from "vitest";
import { fixtureLogs } from "./fixtures-test-support";
import { cardHistories, type TrainingLog, trainingItems } from "./items";

const log = (cardId: string, iso: string, rating: TrainingLog["rating"], state: TrainingLog["state"]): TrainingLog => ({
  cardId,
  rating,
  reviewedAt: new Date(iso),
  state,
});

const now = new Date("2024-06-01T12:00:00Z");

describe("cardHistories", () => {
  it("counts whole study days that start at 04:00 UTC by default", () => {
    const logs = [
      log("a", "2024-05-02T03:59:00Z", 3, "review"),
      log("a", "2024-05-01T10:00:00Z", 3, "new"),
      log("a", "2024-05-02T04:01:00Z", 3, "review"),
      log("a", "2024-05-05T23:00:00Z", 1, "review"),
    ];
    expect(cardHistories(logs, { now })).toMatchObject([{ cardId: "a", ratings: [3, 3, 3, 1], deltaTs: [0, 0, 1, 3] }]);
  });

  it("cuts study days in the user's time zone at their day-start hour", () => {
    // 22:00 and 01:30 in Berlin (UTC+2 in May): two days when they start at midnight, one when at 04:00.
    const logs = [log("a", "2024-05-01T20:00:00Z", 3, "new"), log("a", "2024-05-01T23:30:00Z", 3, "learning")];
    expect(cardHistories(logs, { now, timeZone: "Europe/Berlin", dayStartHour: 0 })[0]?.deltaTs).toEqual([0, 1]);
    expect(cardHistories(logs, { now, timeZone: "Europe/Berlin", dayStartHour: 4 })[0]?.deltaTs).toEqual([0, 0]);
    expect(cardHistories(logs, { now, timeZone: "UTC", dayStartHour: 0 })[0]?.deltaTs).toEqual([0, 0]);
  });

  it("starts a card's history at its last answer as new and leaves out cards never new", () => {
    const logs = [
      log("a", "2024-05-01T10:00:00Z", 3, "new"),
      log("a", "2024-05-03T10:00:00Z", 3, "review"),
      log("a", "2024-05-10T10:00:00Z", 4, "new"),
      log("a", "2024-05-12T10:00:00Z", 2, "review"),
      log("b", "2024-05-12T10:00:00Z", 3, "review"),
    ];
    expect(cardHistories(logs, { now })).toMatchObject([{ cardId: "a", ratings: [4, 2], deltaTs: [0, 2] }]);
  });
});

describe("trainingItems", () => {
  it("makes one item per answer on a later study day than the one before, in the order of those answers", () => {
    const logs = [
      log("a", "2024-05-01T10:00:00Z", 3, "new"),
      log("a", "2024-05-02T10:00:00Z", 3, "review"),
      log("a", "2024-05-06T10:00:00Z", 1, "review"),
      log("b", "2024-05-01T10:00:00Z", 4, "new"),
      log("b", "2024-05-11T10:00:00Z", 3, "review"),
      log("c", "2024-05-01T10:00:00Z", 3, "new"),
      log("d", "2024-05-01T10:00:00Z", 1, "new"),
      log("d", "2024-05-01T10:10:00Z", 3, "learning"),
      log("d", "2024-05-03T10:00:00Z", 3, "review"),
    ];
    const items = trainingItems(logs, { now });
    // a's first item (05-02), d's (05-03), a's second (05-06), b's (05-11); c has no later day.
    expect(Array.from(items.lengths)).toEqual([2, 3, 3, 2]);
    expect(Array.from(items.ratings)).toEqual([3, 3, 1, 3, 3, 3, 3, 1, 4, 3]);
    expect(Array.from(items.deltaTs)).toEqual([0, 1, 0, 0, 2, 0, 1, 4, 0, 10]);
    expect(items.cards).toBe(3);
    expect(items.reviews).toBe(8);
  });

  it("keeps same-day answers in the history of later items but makes no item of them", () => {
    const logs = [
      log("e", "2024-05-01T10:00:00Z", 3, "new"),
      log("e", "2024-05-04T10:00:00Z", 1, "review"),
      log("e", "2024-05-04T10:10:00Z", 3, "relearning"),
      log("e", "2024-05-06T10:00:00Z", 3, "review"),
    ];
    const items = trainingItems(logs, { now });
    expect(Array.from(items.lengths)).toEqual([2, 4]);
    expect(Array.from(items.deltaTs)).toEqual([0, 3, 0, 3, 0, 2]);
  });
});

describe("training items at any hour", () => {
  it("are the same whenever the optimiser runs, in any time zone's day", async () => {
    const logs = await fixtureLogs("BarRonPcAp.colpkg");
    const at = (hour: number, timeZone: string) =>
      trainingItems(logs, { now: new Date(Date.UTC(2026, 10, 27, hour, 17)), timeZone, dayStartHour: 4 });
    for (const timeZone of ["UTC", "America/New_York", "Asia/Kolkata"]) {
      const first = at(0, timeZone);
      expect(first.lengths.length).toBeGreaterThan(0);
      for (let hour = 1; hour < 24; hour++) expect(at(hour, timeZone)).toEqual(first);
    }
  });
});
