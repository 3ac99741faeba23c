/**
 * Business limits and defaults (docs/product.md §5, §9). The database enforces the
 * same numbers; change them here and in the migrations together.
 */
export const limits = {
  deckName: 120,
  deckDescription: 2000,
  displayName: 80,
  fieldLength: 20000,
  /**
   * Bounds on what one cloze note may hold, far above real notes (Anki users
   * rarely pass a few dozen numbers or nest more than two or three deep), so
   * that no single note can make hundreds of thousands of cards and
   * schedules or nest without end.
   */
  clozeNumbersPerNote: 500,
  clozeNestingDepth: 50,
  tagsPerNote: 50,
  tagLength: 64,
  maxDurationMs: 3_600_000,
  futureSkewMs: 300_000,
  /** No stored time (answers, schedules) is earlier; the database also refuses years past 9999. */
  earliestTime: "1970-01-01T00:00:00Z",
  mediaBytes: 10 * 1024 * 1024,
  avatarBytes: 2 * 1024 * 1024,
  importBytes: 200 * 1024 * 1024,
  passwordMin: 8,
  dailyLimitMax: 9999,
  leechThresholdMin: 1,
  leechThresholdMax: 99,
  desiredRetentionMin: 0.7,
  desiredRetentionMax: 0.99,
  fsrsParamCount: 21,
  inviteExpiryMaxDays: 30,
  inviteMaxUses: 1000,
} as const;

export const defaults = {
  newPerDay: 20,
  reviewsPerDay: 200,
  desiredRetention: 0.9,
  dayStartsAt: 4,
  timezone: "UTC",
  inviteExpiryDays: 7,
  undoDepth: 10,
  optimizerMinReviews: 400,
  maximumIntervalDays: 36500,
  /** Lapses that make a card a leech (Anki's default), and what happens to it then. */
  leechThreshold: 8,
  leechAction: "suspend",
} as const;

/**
 * MIME types the `media` bucket accepts (config.toml and the storage migration; a database test keeps them equal).
 * No SVG: Storage serves a file as the type it was declared, and an SVG runs script; apps upload SVG as PNG.
 */
export const mediaTypes = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "audio/mpeg",
  "audio/ogg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/wav",
  "audio/x-wav",
] as const;

/** MIME types the `avatars` bucket accepts. */
/** The media type of a file by its extension, for files that come without one (Anki packages, drag and drop). */
export const mediaTypeByExtension: Readonly<Record<string, (typeof mediaTypes)[number]>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  wav: "audio/wav",
};

/** `mediaTypeByExtension` for a file name, or undefined when it is not a media file. */
export function mediaTypeOf(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? undefined : mediaTypeByExtension[name.slice(dot + 1).toLowerCase()];
}

export const avatarTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** MIME types the `imports` and `exports` buckets accept: packages, delimited text, or plain bytes. */
export const transferTypes = [
  "application/zip",
  "application/octet-stream",
  "text/csv",
  "text/tab-separated-values",
  "text/plain",
] as const;
