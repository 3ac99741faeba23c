import { describe, expect, it } from "vitest";
import { cardHistories, type TrainingLog, trainingItems } from "./items";

const log = (cardId: string, iso: string, rating: TrainingLog["rating"], state: TrainingLog["state"]): TrainingLog => ({
  cardId,
  rating,
  reviewedAt: new Date(iso),
  state,
});

describe("cardHistories", () => {
  it("counts whole study days that start at 04:00 by default", () => {
    const logs = [
      log("a", "2024-05-02T03:59:00Z", 3, "review"),
      log("a", "2024-05-01T10:00:00Z", 3, "new"),
      log("a", "2024-05-02T04:00:00Z", 3, "review"),
      log("a", "2024-05-05T23:00:00Z", 1, "review"),
    ];
    expect(cardHistories(logs)).toEqual([{ ratings: [3, 3, 3, 1], deltaTs: [0, 0, 1, 3] }]);
  });

  it("moves the day boundary with the timezone and day start hour", () => {
    const logs = [log("a", "2024-05-01T20:00:00Z", 3, "new"), log("a", "2024-05-01T23:30:00Z", 3, "learning")];
    // UTC+2 with days starting at midnight: 22:00 and 01:30 local fall on different days.
    expect(cardHistories(logs, { timezoneOffsetMinutes: 120, dayStartHour: 0 })[0]?.deltaTs).toEqual([0, 1]);
    expect(cardHistories(logs)[0]?.deltaTs).toEqual([0, 0]);
  });

  it("starts a card's history at its last answer as new and leaves out cards never new", () => {
    const logs = [
      log("a", "2024-05-01T10:00:00Z", 3, "new"),
      log("a", "2024-05-03T10:00:00Z", 3, "review"),
      log("a", "2024-05-10T10:00:00Z", 4, "new"),
      log("a", "2024-05-12T10:00:00Z", 2, "review"),
      log("b", "2024-05-12T10:00:00Z", 3, "review"),
    ];
    expect(cardHistories(logs)).toEqual([{ ratings: [4, 2], deltaTs: [0, 2] }]);
  });
});

describe("trainingItems", () => {
  it("makes one item per answer after a card's first day, each holding the history up to it", () => {
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
    const items = trainingItems(logs);
    // Card d's first two answers fall on one day, so its only item is its whole history.
    expect(Array.from(items.lengths)).toEqual([2, 3, 2, 3]);
    expect(Array.from(items.ratings)).toEqual([3, 3, 3, 3, 1, 4, 3, 1, 3, 3]);
    expect(Array.from(items.deltaTs)).toEqual([0, 1, 0, 1, 4, 0, 10, 0, 0, 2]);
    expect(items.cards).toBe(3);
  });
});
