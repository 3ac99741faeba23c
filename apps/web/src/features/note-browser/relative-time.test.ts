import { describe, expect, test } from "vitest";
import { relativeTime } from "./relative-time.js";

const now = Date.parse("2026-06-15T12:00:00Z");
const at = (days: number) => new Date(now + days * 86_400_000);

describe("relativeTime", () => {
  test("days ahead and behind, then months and years", () => {
    expect(relativeTime(at(3), now)).toMatch(/3 days/);
    expect(relativeTime(at(-1), now)).toMatch(/yesterday/i);
    expect(relativeTime(at(-60), now)).toMatch(/2 mo/);
    expect(relativeTime(at(800), now)).toMatch(/in 2 yr/);
  });
});
