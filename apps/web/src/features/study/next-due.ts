/**
 * When the next card will be there, in words: "today at 16:05" (a learning
 * card later today), "tomorrow at 04:00" or "in 3 days (Thu 26 Nov)". A card
 * due on a later study day is studied from that day's start (the queue takes
 * what is due before the day ends), so that start is the time given.
 */
import { studyDay } from "@engram/core";
import type { ScheduleRow } from "@engram/sdk";

export type NextDue = { kind: "review" | "new"; words: string };

type Settings = { timezone: string; day_starts_at: number };

const dayMs = 24 * 3600 * 1000;

function time(at: Date, timezone: string): string {
  return at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: timezone });
}

function date(at: Date, timezone: string): string {
  return at.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short", timeZone: timezone });
}

function available(schedule: ScheduleRow, now: Date): boolean {
  return !schedule.suspended && (schedule.buried_until === null || new Date(schedule.buried_until) <= now);
}

function when(at: Date, now: Date, settings: Settings): string {
  const today = studyDay(now, settings.timezone, settings.day_starts_at);
  if (at < today.end) return `today at ${time(at, settings.timezone)}`;
  const day = studyDay(at, settings.timezone, settings.day_starts_at);
  const days = Math.round((day.start.getTime() - today.start.getTime()) / dayMs);
  if (days === 1) return `tomorrow at ${time(day.start, settings.timezone)}`;
  return `in ${days} days (${date(day.start, settings.timezone)})`;
}

/** The soonest card that is not new; else, if new cards wait behind today's limit, tomorrow's start. */
export function nextDue(schedules: ScheduleRow[], settings: Settings, now = new Date()): NextDue | null {
  const open = schedules.filter((schedule) => available(schedule, now));
  const studied = open.filter((schedule) => schedule.state !== "new");
  const soonest = studied.reduce<Date | null>((min, schedule) => {
    const due = new Date(schedule.due);
    return min === null || due < min ? due : min;
  }, null);
  const tomorrow = studyDay(now, settings.timezone, settings.day_starts_at).end;
  const newWaiting = open.some((schedule) => schedule.state === "new");
  if (soonest && (!newWaiting || soonest < tomorrow)) {
    return { kind: "review", words: when(soonest < now ? now : soonest, now, settings) };
  }
  if (newWaiting) return { kind: "new", words: when(tomorrow, now, settings) };
  return null;
}
