import { describe, expect, test } from "vitest";
import { isValidTimezone, studyDay } from "./study-day";

type Case = [now: string, timezone: string, dayStartsAt: number, start: string, end: string];

/**
 * Expected values were computed by PostgreSQL 15 with
 * (date_trunc('day', (now at time zone tz) - make_interval(hours => h)) [+ interval '1 day']
 *   + make_interval(hours => h)) at time zone tz.
 * A wider sweep (18 zones, 2024–2026, every hour, ±1 ms around every start) matched too.
 */
const postgres: Record<string, Case[]> = {
  "a 23-hour day when New York springs forward": [
    ["2025-03-09T05:00:00Z", "America/New_York", 0, "2025-03-09T05:00:00.000Z", "2025-03-10T04:00:00.000Z"],
    ["2025-03-09T05:00:00Z", "America/New_York", 4, "2025-03-08T09:00:00.000Z", "2025-03-09T08:00:00.000Z"],
  ],
  "a skipped start hour moving to the first hour after the gap": [
    ["2025-03-09T12:00:00Z", "America/New_York", 2, "2025-03-09T07:00:00.000Z", "2025-03-10T06:00:00.000Z"],
    ["2025-03-30T12:00:00Z", "Europe/Berlin", 2, "2025-03-30T01:00:00.000Z", "2025-03-31T00:00:00.000Z"],
    ["2025-09-28T00:00:00Z", "Pacific/Chatham", 3, "2025-09-27T14:15:00.000Z", "2025-09-28T13:15:00.000Z"],
    ["2025-10-05T00:00:00Z", "Australia/Lord_Howe", 2, "2025-10-04T15:30:00.000Z", "2025-10-05T15:00:00.000Z"],
  ],
  "a repeated start hour taking its second occurrence": [
    ["2025-11-02T06:30:00Z", "America/New_York", 1, "2025-11-02T06:00:00.000Z", "2025-11-03T06:00:00.000Z"],
    ["2025-04-06T00:00:00Z", "Pacific/Chatham", 3, "2025-04-05T14:15:00.000Z", "2025-04-06T14:15:00.000Z"],
    ["2025-04-05T00:00:00Z", "Pacific/Chatham", 3, "2025-04-04T13:15:00.000Z", "2025-04-05T14:15:00.000Z"],
  ],
  "a 25-hour day when clocks fall back": [
    ["2025-11-02T12:00:00Z", "America/New_York", 0, "2025-11-02T04:00:00.000Z", "2025-11-03T05:00:00.000Z"],
    ["2025-10-26T12:00:00Z", "Europe/Berlin", 23, "2025-10-25T21:00:00.000Z", "2025-10-26T22:00:00.000Z"],
    ["2025-10-26T12:00:00Z", "Europe/Berlin", 0, "2025-10-25T22:00:00.000Z", "2025-10-26T23:00:00.000Z"],
  ],
  "half-hour shifts on Lord Howe Island": [
    ["2025-10-05T00:00:00Z", "Australia/Lord_Howe", 0, "2025-10-04T13:30:00.000Z", "2025-10-05T13:00:00.000Z"],
    ["2025-04-06T00:00:00Z", "Australia/Lord_Howe", 0, "2025-04-05T13:00:00.000Z", "2025-04-06T13:30:00.000Z"],
    ["2025-04-06T00:00:00Z", "Australia/Lord_Howe", 23, "2025-04-05T12:00:00.000Z", "2025-04-06T12:30:00.000Z"],
  ],
  "the boundary instant belonging to the new day": [
    ["2025-03-09T22:29:59.999Z", "Asia/Kolkata", 4, "2025-03-08T22:30:00.000Z", "2025-03-09T22:30:00.000Z"],
    ["2025-03-09T22:30:00.000Z", "Asia/Kolkata", 4, "2025-03-09T22:30:00.000Z", "2025-03-10T22:30:00.000Z"],
    ["2025-03-09T17:29:59.999Z", "Asia/Kolkata", 23, "2025-03-08T17:30:00.000Z", "2025-03-09T17:30:00.000Z"],
    ["2025-03-09T17:30:00.000Z", "Asia/Kolkata", 23, "2025-03-09T17:30:00.000Z", "2025-03-10T17:30:00.000Z"],
    ["2025-11-03T03:59:59.999Z", "America/New_York", 23, "2025-11-02T03:00:00.000Z", "2025-11-03T04:00:00.000Z"],
    ["2025-11-03T04:00:00.000Z", "America/New_York", 23, "2025-11-03T04:00:00.000Z", "2025-11-04T04:00:00.000Z"],
    ["2025-03-29T21:59:59.999Z", "Europe/Berlin", 23, "2025-03-28T22:00:00.000Z", "2025-03-29T22:00:00.000Z"],
    ["2025-03-29T22:00:00.000Z", "Europe/Berlin", 23, "2025-03-29T22:00:00.000Z", "2025-03-30T21:00:00.000Z"],
  ],
};

describe("studyDay agrees with PostgreSQL on", () => {
  for (const [behaviour, cases] of Object.entries(postgres)) {
    test.each(cases)(`${behaviour}: %s in %s starting at %i h`, (now, timezone, dayStartsAt, start, end) => {
      const day = studyDay(new Date(now), timezone, dayStartsAt);
      expect([day.start.toISOString(), day.end.toISOString()]).toEqual([start, end]);
    });
  }
});

test("a day starting at a repeated hour begins after a now in its first pass, as in PostgreSQL", () => {
  // 05:30Z is 01:30 EDT, before the clocks fall back; 01:00 resolves to 01:00 EST (06:00Z).
  const day = studyDay(new Date("2025-11-02T05:30:00Z"), "America/New_York", 1);
  expect(day.start.toISOString()).toBe("2025-11-02T06:00:00.000Z");
});

test("an ordinary day in UTC runs 24 hours from the start hour", () => {
  const day = studyDay(new Date("2025-06-15T03:59:00Z"), "UTC", 4);
  expect([day.start.toISOString(), day.end.toISOString()]).toEqual([
    "2025-06-14T04:00:00.000Z",
    "2025-06-15T04:00:00.000Z",
  ]);
});

test("rejects a day start outside 0–23", () => {
  expect(() => studyDay(new Date(), "UTC", 24)).toThrow(RangeError);
});

test("rejects an unknown time zone", () => {
  expect(() => studyDay(new Date(), "Mars/Olympus_Mons", 4)).toThrow(RangeError);
});

describe("isValidTimezone", () => {
  test("accepts IANA names, aliases and UTC", () => {
    const names = [
      "UTC",
      "Etc/UTC",
      "Europe/Berlin",
      "America/Argentina/Buenos_Aires",
      "Etc/GMT+5",
      "Asia/Kolkata",
      "US/Eastern",
    ];
    expect(names.filter((name) => !isValidTimezone(name))).toEqual([]);
  });

  test("rejects names in the wrong case, which PostgreSQL would not find", () => {
    expect(["europe/berlin", "Europe/berlin", "utc"].filter(isValidTimezone)).toEqual([]);
  });

  test("rejects unknown names, offsets and empty text", () => {
    expect(["Mars/Olympus_Mons", "+05:00", "-03", "", "Europe/", "Europe/Berlin "].filter(isValidTimezone)).toEqual([]);
  });
});
