import { describe, expect, test } from "vitest";
import { limits } from "./limits";
import { basicFieldsSchema, clozeFieldsSchema, noteInputSchema, tagSchema, tagsSchema } from "./note-validation";
import { noteKinds } from "./notes";
import {
  charLength,
  deckDescriptionSchema,
  deckInputSchema,
  deckNameSchema,
  durationMsSchema,
  emailSchema,
  inviteInputSchema,
  passwordSchema,
  profileSettingsSchema,
  ratingSchema,
  reviewedAtSchema,
  reviewInputSchema,
} from "./validation";
import { validationCases } from "./validation-cases";

/** The message of the first issue, or null when the value is valid. */
function firstError(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? "");
}

describe("shared validation cases", () => {
  const suites = [
    ["deck name", deckNameSchema, validationCases.deckName],
    ["tags", tagsSchema, validationCases.tags],
    ["basic fields", basicFieldsSchema, validationCases.basicFields],
    ["cloze text", clozeFieldsSchema.shape.text, validationCases.clozeText],
  ] as const;

  for (const [name, schema, cases] of suites) {
    test(`${name}: accepts every valid case`, () => {
      const rejected = cases.valid.filter((value) => !schema.safeParse(value).success);
      expect(rejected).toEqual([]);
    });

    test(`${name}: rejects every invalid case`, () => {
      const accepted = cases.invalid.filter(({ value }) => schema.safeParse(value).success).map(({ rule }) => rule);
      expect(accepted).toEqual([]);
    });

    test(`${name}: has at least 8 invalid cases`, () => {
      expect(cases.invalid.length).toBeGreaterThanOrEqual(8);
    });
  }
});

describe("deck", () => {
  test("names are trimmed", () => {
    expect(deckNameSchema.parse("  Verbs \n")).toBe("Verbs");
  });

  test("a blank name asks for one", () => {
    expect(firstError(deckNameSchema.safeParse("   "))).toBe("Give the deck a name.");
  });

  test("a long name says the limit", () => {
    expect(firstError(deckNameSchema.safeParse("a".repeat(121)))).toBe("Deck names can be at most 120 characters.");
  });

  test("descriptions allow 2000 characters and no more", () => {
    expect([2000, 2001].map((n) => deckDescriptionSchema.safeParse("a".repeat(n)).success)).toEqual([true, false]);
  });

  test("daily limits may be null to use the profile default", () => {
    expect(deckInputSchema.parse({ name: "D", new_per_day: null, reviews_per_day: 9999 })).toEqual({
      name: "D",
      new_per_day: null,
      reviews_per_day: 9999,
    });
  });

  test("daily limits must be whole numbers from 0 to 9999", () => {
    const values = [-1, 10000, 1.5];
    expect(values.map((v) => deckInputSchema.safeParse({ name: "D", new_per_day: v }).success)).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("bury settings", () => {
  test("are on or off, and say so when they are anything else", () => {
    expect(
      deckInputSchema.parse({ name: "D", bury_new: false, bury_reviews: true, bury_interday_learning: true }),
    ).toEqual({ name: "D", bury_new: false, bury_reviews: true, bury_interday_learning: true });
    expect(firstError(deckInputSchema.safeParse({ name: "D", bury_reviews: null }))).toBe("Choose on or off.");
    expect(firstError(deckInputSchema.safeParse({ name: "D", bury_new: "yes" }))).toBe("Choose on or off.");
  });
});

describe("leech settings", () => {
  test("thresholds are whole numbers from 1 to 99", () => {
    const values = [1, 99, 0, 100, 8.5];
    expect(values.map((v) => deckInputSchema.safeParse({ name: "D", leech_threshold: v }).success)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  test("a threshold out of range says the bounds", () => {
    expect(firstError(deckInputSchema.safeParse({ name: "D", leech_threshold: 0 }))).toBe("Use 1 or more.");
    expect(firstError(deckInputSchema.safeParse({ name: "D", leech_threshold: 100 }))).toBe("Use at most 99.");
  });

  test("the action is suspend or tag only", () => {
    const actions = ["suspend", "tag_only", "delete"];
    expect(actions.map((a) => deckInputSchema.safeParse({ name: "D", leech_action: a }).success)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe("tags", () => {
  test("a tag with a space explains what to use instead", () => {
    expect(firstError(tagSchema.safeParse("two words"))).toBe("Tags cannot contain spaces; use _ or - instead.");
  });

  test("duplicates are reported", () => {
    expect(firstError(tagsSchema.safeParse(["a", "a"]))).toBe("Each tag can appear only once.");
  });
});

describe("notes", () => {
  test("an empty-looking front names the side", () => {
    expect(firstError(basicFieldsSchema.safeParse({ front: "<b>&nbsp;</b>", back: "x" }))).toBe(
      "The front cannot be empty.",
    );
  });

  test("cloze text without a deletion shows an example", () => {
    expect(firstError(clozeFieldsSchema.safeParse({ text: "no deletion", extra: "" }))).toBe(
      "Add at least one cloze deletion, like {{c1::answer}}.",
    );
  });

  test("a cloze text with too many numbers says how to fix it", () => {
    const text = Array.from({ length: 501 }, (_, i) => `{{c${i + 1}::a}}`).join("");
    expect(firstError(clozeFieldsSchema.safeParse({ text, extra: "" }))).toBe(
      "A note can have at most 500 cloze numbers; split it into several notes.",
    );
  });

  test("a cloze text nested too deep names the limit", () => {
    const text = `${"{{c1::".repeat(51)}x${"}}".repeat(51)}`;
    expect(firstError(clozeFieldsSchema.safeParse({ text, extra: "" }))).toBe(
      "Cloze deletions can be nested at most 50 deep.",
    );
  });

  test("cloze extra defaults to empty", () => {
    expect(clozeFieldsSchema.parse({ text: "{{c1::a}}" })).toEqual({ text: "{{c1::a}}", extra: "" });
  });

  test("cloze extra is limited to 20000 characters", () => {
    expect(clozeFieldsSchema.safeParse({ text: "{{c1::a}}", extra: "a".repeat(20001) }).success).toBe(false);
  });

  test("a reversed note takes basic fields and defaults tags to none", () => {
    expect(noteInputSchema.parse({ kind: "basic_reversed", fields: { front: "a", back: "b" } })).toEqual({
      kind: "basic_reversed",
      fields: { front: "a", back: "b" },
      tags: [],
    });
  });

  test("a type-in note takes basic fields and needs both", () => {
    expect(noteInputSchema.parse({ kind: "type_in", fields: { front: "Capital of Peru?", back: "Lima" } })).toEqual({
      kind: "type_in",
      fields: { front: "Capital of Peru?", back: "Lima" },
      tags: [],
    });
    expect(noteInputSchema.safeParse({ kind: "type_in", fields: { text: "{{c1::a}}", extra: "" } }).success).toBe(
      false,
    );
  });

  test("a cloze note is checked with cloze rules", () => {
    expect(noteInputSchema.safeParse({ kind: "cloze", fields: { front: "a", back: "b" } }).success).toBe(false);
  });

  test("an unknown kind lists the kinds", () => {
    expect(firstError(noteInputSchema.safeParse({ kind: "image", fields: {} }))).toBe(
      `Choose a note type: ${noteKinds.join(", ")}.`,
    );
  });

  test("note tags are validated", () => {
    expect(noteInputSchema.safeParse({ kind: "basic", fields: { front: "a", back: "b" }, tags: ["a b"] }).success).toBe(
      false,
    );
  });
});

describe("reviews", () => {
  const now = new Date("2025-06-01T12:00:00Z");
  const review = {
    card_id: "11111111-1111-1111-1111-111111111111",
    client_review_id: "6f1c1f5e-3f43-4f5b-9a43-2d7f1c0f9c11",
    rating: 3,
    duration_ms: 4200,
    reviewed_at: "2025-06-01T11:59:00Z",
  };

  test("ratings are 1 to 4 only", () => {
    expect([0, 1, 4, 5, 2.5, "3"].map((v) => ratingSchema.safeParse(v).success)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  test("durations are whole milliseconds from 0 to one hour", () => {
    expect(
      [-1, 0, limits.maxDurationMs, limits.maxDurationMs + 1, 1.5].map((v) => durationMsSchema.safeParse(v).success),
    ).toEqual([false, true, true, false, false]);
  });

  test("an ISO review time parses to a Date", () => {
    expect(reviewInputSchema(now).parse(review).reviewed_at).toEqual(new Date("2025-06-01T11:59:00Z"));
  });

  test("a review time exactly 5 minutes ahead is accepted", () => {
    expect(reviewedAtSchema(now).safeParse(new Date(now.getTime() + limits.futureSkewMs)).success).toBe(true);
  });

  test("a review time more than 5 minutes ahead is rejected", () => {
    expect(firstError(reviewedAtSchema(now).safeParse(new Date(now.getTime() + limits.futureSkewMs + 1)))).toBe(
      "The review time is in the future; check this device's clock.",
    );
  });

  test("a review time before 1970 is rejected, as the database refuses it", () => {
    expect(reviewedAtSchema(now).safeParse(new Date(limits.earliestTime)).success).toBe(true);
    expect(firstError(reviewedAtSchema(now).safeParse(new Date(Date.parse(limits.earliestTime) - 1)))).toBe(
      "The review time is before 1970; check this device's clock.",
    );
  });

  test("the clock is read at each parse by default", () => {
    const schema = reviewedAtSchema();
    expect(schema.safeParse(new Date(Date.now() + 60_000)).success).toBe(true);
  });

  test("a clock function is read at each parse", () => {
    let clock = now;
    const schema = reviewedAtSchema(() => clock);
    const inTenMinutes = new Date(now.getTime() + 10 * 60_000);
    const before = schema.safeParse(inTenMinutes).success;
    clock = inTenMinutes;
    expect([before, schema.safeParse(inTenMinutes).success]).toEqual([false, true]);
  });

  test("a review time without an offset or not a date is rejected", () => {
    expect(
      ["2025-06-01T11:59:00", "yesterday", new Date("nope")].map((v) => reviewedAtSchema(now).safeParse(v).success),
    ).toEqual([false, false, false]);
  });

  test("ids are any UUID-shaped value, as Postgres accepts", () => {
    expect(reviewInputSchema(now).safeParse({ ...review, card_id: "not-a-uuid" }).success).toBe(false);
  });
});

describe("accounts", () => {
  test("emails are trimmed and checked", () => {
    expect([emailSchema.parse(" ada@example.org "), emailSchema.safeParse("ada@").success]).toEqual([
      "ada@example.org",
      false,
    ]);
  });

  test("passwords need 8 characters", () => {
    expect(["1234567", "12345678"].map((v) => passwordSchema.safeParse(v).success)).toEqual([false, true]);
  });

  test("password length counts characters, not UTF-16 units", () => {
    expect(passwordSchema.safeParse("\u{1F9E0}".repeat(4)).success).toBe(false);
  });
});

describe("profile settings", () => {
  const settings = {
    display_name: "Ada",
    timezone: "Europe/Berlin",
    day_starts_at: 4,
    desired_retention: 0.9,
    fsrs_params: null,
    new_per_day: 20,
    reviews_per_day: 200,
  };

  test("accepts defaults-like settings", () => {
    expect(profileSettingsSchema.safeParse(settings).success).toBe(true);
  });

  test("rejects an unknown time zone", () => {
    expect(firstError(profileSettingsSchema.safeParse({ ...settings, timezone: "Berlin" }))).toBe(
      "Choose a time zone from the list, like Europe/Berlin.",
    );
  });

  test("takes day start hours 0 to 23", () => {
    expect(
      [-1, 0, 23, 24, 4.5].map((h) => profileSettingsSchema.safeParse({ ...settings, day_starts_at: h }).success),
    ).toEqual([false, true, true, false, false]);
  });

  test("takes desired retention from 0.70 to 0.99", () => {
    expect(
      [0.69, 0.7, 0.99, 0.991].map(
        (r) => profileSettingsSchema.safeParse({ ...settings, desired_retention: r }).success,
      ),
    ).toEqual([false, true, true, false]);
  });

  test("takes exactly 21 finite scheduler parameters", () => {
    const params = (n: number, fill = 1) => Array.from({ length: n }, () => fill);
    const results = [
      params(21),
      params(20),
      params(22),
      params(21, Number.POSITIVE_INFINITY),
      params(21, Number.NaN),
    ].map((fsrs_params) => profileSettingsSchema.safeParse({ ...settings, fsrs_params }).success);
    expect(results).toEqual([true, false, false, false, false]);
  });

  test("limits display names to 80 characters", () => {
    expect(profileSettingsSchema.safeParse({ ...settings, display_name: "a".repeat(81) }).success).toBe(false);
  });
});

describe("invites", () => {
  test("default to 7 days and unlimited uses", () => {
    expect(inviteInputSchema.parse({ role: "viewer" })).toEqual({ role: "viewer", expires_in_days: 7, max_uses: null });
  });

  test("cannot make owners", () => {
    expect(inviteInputSchema.safeParse({ role: "owner" }).success).toBe(false);
  });

  test("last 1 to 30 days", () => {
    expect(
      [0, 1, 30, 31].map((d) => inviteInputSchema.safeParse({ role: "editor", expires_in_days: d }).success),
    ).toEqual([false, true, true, false]);
  });

  test("allow 1 to 1000 uses", () => {
    expect([0, 1, 1000, 1001].map((n) => inviteInputSchema.safeParse({ role: "editor", max_uses: n }).success)).toEqual(
      [false, true, true, false],
    );
  });
});

test("charLength counts code points like Postgres char_length", () => {
  expect(charLength("a\u{1F9E0}é")).toBe(3);
});
