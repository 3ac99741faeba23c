/**
 * Input rules of docs/product.md §5 as zod schemas, shared by the SDK and the UI.
 * The database enforces the same rules; `validationCases` keeps them equal.
 * A note's fields and tags are in note-validation.ts, so decks, accounts and
 * answers are checked without the note rules (cloze, image occlusion).
 *
 * Lengths count Unicode code points, like Postgres `char_length`, not UTF-16
 * units. "Whitespace" (trimming, tags) is ECMAScript's: \t \n \v \f \r, space,
 * U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
 */
import { z } from "zod/mini";
import { defaults, limits } from "./limits";
import { isValidTimezone } from "./study-day";

// zod/mini leaves the default messages (a rule without its own message) to a locale; English, as classic zod has.
z.config(z.locales.en());

/** Code points, as Postgres counts characters. */
export function charLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export function atMost(max: number) {
  return (value: string) => charLength(value) <= max;
}

export function limitedText(max: number, message: string) {
  return z.string({ error: "Expected text." }).check(z.refine(atMost(max), message));
}

export const deckNameSchema = z
  .string({ error: "The deck name must be text." })
  .check(
    z.trim(),
    z.minLength(1, "Give the deck a name."),
    z.refine(atMost(limits.deckName), `Deck names can be at most ${limits.deckName} characters.`),
  );

export const deckDescriptionSchema = limitedText(
  limits.deckDescription,
  `Descriptions can be at most ${limits.deckDescription} characters.`,
);

export const dailyLimitSchema = z
  .int({ error: "Use a whole number." })
  .check(z.gte(0, "Use 0 or more."), z.lte(limits.dailyLimitMax, `Use at most ${limits.dailyLimitMax}.`));

/** Lapses at which a card becomes a leech (decks_leech_threshold_range). */
const leechThresholdSchema = z
  .int({ error: "Use a whole number." })
  .check(
    z.gte(limits.leechThresholdMin, `Use ${limits.leechThresholdMin} or more.`),
    z.lte(limits.leechThresholdMax, `Use at most ${limits.leechThresholdMax}.`),
  );

const buryFlagSchema = z.boolean({ error: "Choose on or off." });

/** Per-deck limits: null means "use my profile's limit". */
export const deckInputSchema = z.object({
  name: deckNameSchema,
  description: z.optional(deckDescriptionSchema),
  is_public: z.optional(z.boolean()),
  new_per_day: z.optional(z.nullable(dailyLimitSchema)),
  reviews_per_day: z.optional(z.nullable(dailyLimitSchema)),
  leech_threshold: z.optional(leechThresholdSchema),
  leech_action: z.optional(z.enum(["suspend", "tag_only"], { error: "Suspend the card or only tag it." })),
  // Whether a card waits for another day once a sibling (a card of the same note) was studied today.
  bury_new: z.optional(buryFlagSchema),
  bury_reviews: z.optional(buryFlagSchema),
  bury_interday_learning: z.optional(buryFlagSchema),
  // Who may suggest changes to the deck's notes (docs/product.md §4, "Suggestions").
  suggestions_from: z.optional(
    z.enum(["members", "public", "nobody"], { error: "Choose members, anyone who can read it, or nobody." }),
  ),
});

export const ratingSchema = z.literal([1, 2, 3, 4], {
  error: "Rate the answer 1 (again), 2 (hard), 3 (good) or 4 (easy).",
});

export const durationMsSchema = z
  .int({ error: "The answer time must be a whole number of milliseconds." })
  .check(
    z.gte(0, "The answer time cannot be negative."),
    z.lte(limits.maxDurationMs, "Answer times are capped at one hour."),
  );

/** A fixed instant, or a clock read at every parse (the default) so long-lived schemas stay right. */
export type Now = Date | (() => Date);

function readNow(now: Now): Date {
  return typeof now === "function" ? now() : now;
}

/** A Date or an ISO 8601 string with offset, at most 5 minutes after `now`; parses to a Date. */
export function reviewedAtSchema(now: Now = () => new Date()) {
  return z
    .union(
      [
        z.date(),
        z.pipe(
          z.iso.datetime({ offset: true }),
          z.transform((iso: string) => new Date(iso)),
        ),
      ],
      {
        error: "The review time must be a date.",
      },
    )
    .check(
      z.refine(
        (date) => date.getTime() >= Date.parse(limits.earliestTime),
        "The review time is before 1970; check this device's clock.",
      ),
      z.refine(
        (date) => date.getTime() <= readNow(now).getTime() + limits.futureSkewMs,
        "The review time is in the future; check this device's clock.",
      ),
    );
}

/** One answer as the study screen sends it; `client_review_id` makes retries idempotent. */
export function reviewInputSchema(now: Now = () => new Date()) {
  return z.object({
    card_id: z.guid("Unknown card."),
    client_review_id: z.guid("The review id must be a UUID."),
    rating: ratingSchema,
    duration_ms: durationMsSchema,
    reviewed_at: reviewedAtSchema(now),
  });
}

export const emailSchema = z.pipe(
  z.string({ error: "Enter your email address." }).check(z.trim()),
  z.email("Enter a valid email address."),
);

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .check(
    z.refine(
      (password) => charLength(password) >= limits.passwordMin,
      `Use at least ${limits.passwordMin} characters.`,
    ),
  );

export const timezoneSchema = z
  .string({ error: "Choose a time zone." })
  .check(z.refine(isValidTimezone, "Choose a time zone from the list, like Europe/Berlin."));

export const profileSettingsSchema = z.object({
  display_name: z.nullable(
    z
      .string()
      .check(z.trim(), z.refine(atMost(limits.displayName), `Names can be at most ${limits.displayName} characters.`)),
  ),
  timezone: timezoneSchema,
  day_starts_at: z
    .int({ error: "Choose an hour." })
    .check(z.gte(0, "Choose an hour from 0 to 23."), z.lte(23, "Choose an hour from 0 to 23.")),
  desired_retention: z
    .number({ error: "Enter a retention between 0.70 and 0.99." })
    .check(
      z.gte(limits.desiredRetentionMin, "Desired retention must be at least 0.70."),
      z.lte(limits.desiredRetentionMax, "Desired retention must be at most 0.99."),
    ),
  fsrs_params: z.nullable(
    z
      .array(z.number({ error: "Scheduler parameters must be finite numbers." }))
      .check(z.length(limits.fsrsParamCount, `Scheduler parameters must be exactly ${limits.fsrsParamCount} numbers.`)),
  ),
  new_per_day: dailyLimitSchema,
  reviews_per_day: dailyLimitSchema,
});

export const inviteInputSchema = z.object({
  role: z.enum(["editor", "viewer"], { error: "Invite as editor or viewer." }),
  expires_in_days: z._default(
    z
      .int({ error: "Use a whole number of days." })
      .check(
        z.gte(1, "Invites last at least 1 day."),
        z.lte(limits.inviteExpiryMaxDays, `Invites last at most ${limits.inviteExpiryMaxDays} days.`),
      ),
    defaults.inviteExpiryDays,
  ),
  max_uses: z._default(
    z.nullable(
      z
        .int({ error: "Use a whole number." })
        .check(
          z.gte(1, "Allow at least 1 use."),
          z.lte(limits.inviteMaxUses, `Allow at most ${limits.inviteMaxUses} uses.`),
        ),
    ),
    null,
  ),
});

export type DeckInput = z.infer<typeof deckInputSchema>;
export type ReviewInput = z.infer<ReturnType<typeof reviewInputSchema>>;
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;
export type InviteInput = z.infer<typeof inviteInputSchema>;
