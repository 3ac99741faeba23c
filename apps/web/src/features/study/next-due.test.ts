import type { ScheduleRow } from "@engram/sdk";
import { describe, expect, it } from "vitest";
import { nextDue } from "./next-due.js";

const timezone = "Europe/Berlin";
const settings = { timezone, day_starts_at: 4 };
/** Thursday 26 November 2026, 13:00 in Berlin (UTC+1): the study day runs from 04:00 to 04:00 the next morning. */
const now = new Date("2026-11-26T12:00:00Z");

function schedule(overrides: Partial<ScheduleRow>): ScheduleRow {
  return {
    buried_until: null,
    card_id: "00000000-0000-4000-8000-000000000001",
    deck_id: "00000000-0000-4000-8000-0000000000d1",
    difficulty: 5,
    due: "2026-11-26T12:00:00Z",
    elapsed_days: 0,
    flag: 0,
    lapses: 0,
    last_review: null,
    learning_steps: 0,
    leech_at: null,
    note_id: "00000000-0000-4000-8000-0000000000b1",
    ordinal: 1,
    reps: 1,
    scheduled_days: 1,
    stability: 1,
    state: "review",
    suspended: false,
    updated_at: "2026-11-25T12:00:00Z",
    user_id: "00000000-0000-4000-8000-0000000000a1",
    version: 1,
    ...overrides,
  };
}

/** The clock time the screen shows for an instant, in the user's zone, as the device writes times. */
const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: timezone });
const calendarDay = (iso: string) =>
  new Date(iso).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short", timeZone: timezone });

describe("nextDue", () => {
  it("is null when no card will come", () => {
    expect(nextDue([], settings, now)).toBeNull();
    expect(nextDue([schedule({ suspended: true })], settings, now)).toBeNull();
  });

  it("gives a learning card's own time when it comes back later today", () => {
    const learning = schedule({ state: "learning", due: "2026-11-26T15:05:00Z" });
    expect(nextDue([learning], settings, now)).toEqual({
      kind: "review",
      words: `today at ${clock("2026-11-26T15:05:00Z")}`,
    });
  });

  it("counts a card due after midnight but before the day starts as today's", () => {
    const early = schedule({ state: "learning", due: "2026-11-27T02:30:00Z" });
    expect(nextDue([early], settings, now)?.words).toBe(`today at ${clock("2026-11-27T02:30:00Z")}`);
  });

  it("gives now for a card already overdue", () => {
    const overdue = schedule({ due: "2026-11-20T08:00:00Z" });
    expect(nextDue([overdue], settings, now)?.words).toBe(`today at ${clock(now.toISOString())}`);
  });

  it("gives tomorrow's start, not the due time, for a card due tomorrow", () => {
    const tomorrow = schedule({ due: "2026-11-27T10:00:00Z" });
    expect(nextDue([tomorrow], settings, now)).toEqual({
      kind: "review",
      // 04:00 in Berlin.
      words: `tomorrow at ${clock("2026-11-27T03:00:00Z")}`,
    });
  });

  it("counts later days and names the day", () => {
    const later = schedule({ due: "2026-11-29T10:00:00Z" });
    expect(nextDue([later], settings, now)?.words).toBe(`in 3 days (${calendarDay("2026-11-29T03:00:00Z")})`);
  });

  it("takes the soonest of several cards", () => {
    const cards = [
      schedule({ due: "2026-11-29T10:00:00Z" }),
      schedule({ state: "relearning", due: "2026-11-26T18:00:00Z" }),
      schedule({ due: "2026-11-28T10:00:00Z" }),
    ];
    expect(nextDue(cards, settings, now)?.words).toBe(`today at ${clock("2026-11-26T18:00:00Z")}`);
  });

  it("offers tomorrow's new cards when no review comes before then", () => {
    const waitingNew = schedule({ state: "new", due: "2026-11-01T00:00:00Z" });
    const nextWeek = schedule({ due: "2026-12-03T10:00:00Z" });
    const expected = { kind: "new", words: `tomorrow at ${clock("2026-11-27T03:00:00Z")}` };
    expect(nextDue([waitingNew], settings, now)).toEqual(expected);
    expect(nextDue([waitingNew, nextWeek], settings, now)).toEqual(expected);
  });

  it("prefers a review due today over waiting new cards", () => {
    const waitingNew = schedule({ state: "new" });
    const laterToday = schedule({ state: "learning", due: "2026-11-26T20:00:00Z" });
    expect(nextDue([waitingNew, laterToday], settings, now)).toEqual({
      kind: "review",
      words: `today at ${clock("2026-11-26T20:00:00Z")}`,
    });
  });

  it("leaves out suspended cards and cards buried until later, but not a burial that has ended", () => {
    const suspended = schedule({ due: "2026-11-26T14:00:00Z", suspended: true });
    const buried = schedule({ due: "2026-11-26T15:00:00Z", buried_until: "2026-11-27T03:00:00Z" });
    const unburied = schedule({ due: "2026-11-26T16:00:00Z", buried_until: "2026-11-26T03:00:00Z" });
    expect(nextDue([suspended, buried, unburied], settings, now)?.words).toBe(
      `today at ${clock("2026-11-26T16:00:00Z")}`,
    );
    expect(nextDue([suspended, buried], settings, now)).toBeNull();
  });
});
