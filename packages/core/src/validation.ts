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
import { z } from "zod";
import { defaults, limits } from "./limits";
import { isValidTimezone } from "./study-day";

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
  return z.string({ error: "Expected text." }).refine(atMost(max), message);
}

export const deckNameSchema = z
  .string({ error: "The deck name must be text." })
  .trim()
  .min(1, "Give the deck a name.")
  .refine(atMost(limits.deckName), `Deck names can be at most ${limits.deckName} characters.`);

export const deckDescriptionSchema = limitedText(
  limits.deckDescription,
  `Descriptions can be at most ${limits.deckDescription} characters.`,
);

export const dailyLimitSchema = z
  .int({ error: "Use a whole number." })
  .min(0, "Use 0 or more.")
  .max(limits.dailyLimitMax, `Use at most ${limits.dailyLimitMax}.`);

/** Lapses at which a card becomes a leech (decks_leech_threshold_range). */
const leechThresholdSchema = z
  .int({ error: "Use a whole number." })
  .min(limits.leechThresholdMin, `Use ${limits.leechThresholdMin} or more.`)
  .max(limits.leechThresholdMax, `Use at most ${limits.leechThresholdMax}.`);

const buryFlagSchema = z.boolean({ error: "Choose on or off." });

/** Per-deck limits: null means "use my profile's limit". */
export const deckInputSchema = z.object({
  name: deckNameSchema,
  description: deckDescriptionSchema.optional(),
  is_public: z.boolean().optional(),
  new_per_day: dailyLimitSchema.nullable().optional(),
  reviews_per_day: dailyLimitSchema.nullable().optional(),
  leech_threshold: leechThresholdSchema.optional(),
  leech_action: z.enum(["suspend", "tag_only"], { error: "Suspend the card or only tag it." }).optional(),
  // Whether a card waits for another day once a sibling (a card of the same note) was studied today.
  bury_new: buryFlagSchema.optional(),
  bury_reviews: buryFlagSchema.optional(),
  bury_interday_learning: buryFlagSchema.optional(),
  // Who may suggest changes to the deck's notes (docs/product.md §4, "Suggestions").
  suggestions_from: z
    .enum(["members", "public", "nobody"], { error: "Choose members, anyone who can read it, or nobody." })
    .optional(),
});

export const ratingSchema = z.literal([1, 2, 3, 4], {
  error: "Rate the answer 1 (again), 2 (hard), 3 (good) or 4 (easy).",
});

export const durationMsSchema = z
  .int({ error: "The answer time must be a whole number of milliseconds." })
  .min(0, "The answer time cannot be negative.")
  .max(limits.maxDurationMs, "Answer times are capped at one hour.");

/** A fixed instant, or a clock read at every parse (the default) so long-lived schemas stay right. */
export type Now = Date | (() => Date);

function readNow(now: Now): Date {
  return typeof now === "function" ? now() : now;
}

/** A Date or an ISO 8601 string with offset, at most 5 minutes after `now`; parses to a Date. */
export function reviewedAtSchema(now: Now = () => new Date()) {
  return z
    .union([z.date(), z.iso.datetime({ offset: true }).transform((iso) => new Date(iso))], {
      error: "The review time must be a date.",
    })
    .refine(
      (date) => date.getTime() >= Date.parse(limits.earliestTime),
      "The review time is before 1970; check this device's clock.",
    )
    .refine(
      (date) => date.getTime() <= readNow(now).getTime() + limits.futureSkewMs,
      "The review time is in the future; check this device's clock.",
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

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .pipe(z.email("Enter a valid email address."));

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .refine((password) => charLength(password) >= limits.passwordMin, `Use at least ${limits.passwordMin} characters.`);

export const timezoneSchema = z
  .string({ error: "Choose a time zone." })
  .refine(isValidTimezone, "Choose a time zone from the list, like Europe/Berlin.");

export const profileSettingsSchema = z.object({
  display_name: z
    .string()
    .trim()
    .refine(atMost(limits.displayName), `Names can be at most ${limits.displayName} characters.`)
    .nullable(),
  timezone: timezoneSchema,
  day_starts_at: z
    .int({ error: "Choose an hour." })
    .min(0, "Choose an hour from 0 to 23.")
    .max(23, "Choose an hour from 0 to 23."),
  desired_retention: z
    .number({ error: "Enter a retention between 0.70 and 0.99." })
    .min(limits.desiredRetentionMin, "Desired retention must be at least 0.70.")
    .max(limits.desiredRetentionMax, "Desired retention must be at most 0.99."),
  fsrs_params: z
    .array(z.number({ error: "Scheduler parameters must be finite numbers." }))
    .length(limits.fsrsParamCount, `Scheduler parameters must be exactly ${limits.fsrsParamCount} numbers.`)
    .nullable(),
  new_per_day: dailyLimitSchema,
  reviews_per_day: dailyLimitSchema,
});

export const inviteInputSchema = z.object({
  role: z.enum(["editor", "viewer"], { error: "Invite as editor or viewer." }),
  expires_in_days: z
    .int({ error: "Use a whole number of days." })
    .min(1, "Invites last at least 1 day.")
    .max(limits.inviteExpiryMaxDays, `Invites last at most ${limits.inviteExpiryMaxDays} days.`)
    .default(defaults.inviteExpiryDays),
  max_uses: z
    .int({ error: "Use a whole number." })
    .min(1, "Allow at least 1 use.")
    .max(limits.inviteMaxUses, `Allow at most ${limits.inviteMaxUses} uses.`)
    .nullable()
    .default(null),
});

export type DeckInput = z.infer<typeof deckInputSchema>;
export type ReviewInput = z.infer<ReturnType<typeof reviewInputSchema>>;
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;
export type InviteInput = z.infer<typeof inviteInputSchema>;
