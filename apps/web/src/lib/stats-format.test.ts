import { describe, expect, it } from "vitest";
import {
  addDays,
  daysEnding,
  formatCount,
  formatDay,
  formatDuration,
  formatMonth,
  percent,
  plural,
  toDate,
  toTime,
} from "./stats-format.js";

describe("study days as YYYY-MM-DD strings", () => {
  it("reads a day as its UTC midnight and writes it back", () => {
    expect(toTime("2026-03-01")).toBe(Date.UTC(2026, 2, 1));
    expect(toDate(Date.UTC(2026, 2, 1, 23, 59))).toBe("2026-03-01");
  });

  it("adds days across month, year and leap-day boundaries", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("lists the days ending today, oldest first", () => {
    expect(daysEnding("2026-01-02", 4)).toEqual(["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"]);
    expect(daysEnding("2026-01-02", 0)).toEqual([]);
  });

  it("writes a day and a month as the day itself, whatever the device's time zone", () => {
    expect(formatDay("2026-01-01")).toMatch(/2026/);
    expect(formatDay("2026-01-01")).toMatch(/\b1\b/);
    expect(formatMonth("2026-01-01")).toMatch(/2026/);
    expect(formatMonth("2026-01-01")).not.toMatch(/2025/);
  });
});

describe("counts in words", () => {
  it("uses the singular for exactly one and the plural otherwise", () => {
    expect(plural(1, "card")).toBe("1 card");
    expect(plural(0, "card")).toBe("0 cards");
    expect(plural(2, "day")).toBe("2 days");
    expect(plural(3, "child", "children")).toBe("3 children");
  });

  it("groups large counts as the device's locale does", () => {
    expect(formatCount(12345)).toBe((12345).toLocaleString());
    expect(plural(12345, "review")).toBe(`${(12345).toLocaleString()} reviews`);
  });
});

describe("formatDuration", () => {
  it("writes seconds under a minute", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(40_000)).toBe("40 s");
    expect(formatDuration(59_400)).toBe("59 s");
  });

  it("rounds to the minute once past one", () => {
    expect(formatDuration(60_000)).toBe("1 min");
    expect(formatDuration(89_000)).toBe("1 min");
    expect(formatDuration(90_000)).toBe("2 min");
    expect(formatDuration(12 * 60_000)).toBe("12 min");
  });

  it("writes hours and the minutes left, dropping zero minutes", () => {
    expect(formatDuration(60 * 60_000)).toBe("1 h");
    expect(formatDuration(65 * 60_000)).toBe("1 h 5 min");
    expect(formatDuration(59.6 * 60_000)).toBe("1 h");
    expect(formatDuration(125 * 60_000)).toBe("2 h 5 min");
  });
});

describe("percent", () => {
  it("writes a share to one decimal", () => {
    expect(percent(923, 1000)).toBe("92.3%");
    expect(percent(1, 3)).toBe("33.3%");
    expect(percent(5, 5)).toBe("100.0%");
    expect(percent(0, 4)).toBe("0.0%");
  });

  it("gives null when there was nothing to count", () => {
    expect(percent(0, 0)).toBeNull();
  });
});
