/**
 * Anki's deck option groups (presets): the daily limits, leech rule and burying
 * Engram keeps from each, read from schema 11's `col.dconf` JSON (as
 * rslib/src/deckconfig/schema11.rs reads it) or schema 18's `deck_config` rows
 * (a protobuf DeckConfig.Config), and the group each deck studies with.
 */
import { AnkiImportError } from "./errors";
import { fieldMessages, fieldNumber, readFields } from "./protobuf";
import type { AnkiDeckConfig } from "./types";

/** Engram's ranges; Anki allows leech thresholds up to 9999. */
export const deckConfigRanges = {
  perDay: { min: 0, max: 9999 },
  leechThreshold: { min: 1, max: 99 },
} as const;

/** Anki's defaults (rslib's DEFAULT_DECK_CONFIG_INNER), for values a group lacks or holds in a shape Anki would not read. */
export const ankiDefaultDeckConfig: AnkiDeckConfig = {
  id: 1,
  name: "Default",
  newPerDay: 20,
  reviewsPerDay: 200,
  leechThreshold: 8,
  leechAction: "tag_only",
  buryNew: false,
  buryReviews: false,
  buryInterdayLearning: false,
};

/**
 * A count fitted into Engram's range. A missing or non-numeric value takes Anki's
 * default, and so does a value under the range's minimum: Anki reads a leech
 * threshold of 0 (proto3's absent field) as its default of 8.
 */
function bounded(value: unknown, fallback: number, range: { min: number; max: number }): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < range.min) return fallback;
  return Math.min(range.max, Math.trunc(n));
}

const flag = (value: unknown): boolean => value === true || value === 1;

const object = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Anki's ids may be JSON numbers or numeric strings; anything else is not an id. */
function idOf(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/** One entry of schema 11's `dconf` (keyed by id, as Anki keys it: the key wins over an inner id). */
export function deckConfigFromJson(key: string, value: unknown): AnkiDeckConfig | undefined {
  const conf = object(value);
  const id = idOf(key) ?? idOf(conf.id);
  if (id === undefined) return undefined;
  const fresh = object(conf.new);
  const rev = object(conf.rev);
  const lapse = object(conf.lapse);
  const d = ankiDefaultDeckConfig;
  return {
    id,
    name: typeof conf.name === "string" ? conf.name : String(id),
    newPerDay: bounded(fresh.perDay, d.newPerDay, deckConfigRanges.perDay),
    reviewsPerDay: bounded(rev.perDay, d.reviewsPerDay, deckConfigRanges.perDay),
    leechThreshold: bounded(lapse.leechFails, d.leechThreshold, deckConfigRanges.leechThreshold),
    // Schema 11's LeechAction: 0 suspend, 1 tag only, anything else Anki's default (tag only).
    leechAction: lapse.leechAction === 0 ? "suspend" : "tag_only",
    buryNew: flag(fresh.bury),
    buryReviews: flag(rev.bury),
    buryInterdayLearning: flag(conf.buryInterdayLearning),
  };
}

/**
 * One `deck_config` row of schema 18. Proto3 leaves zeros and false out, so an
 * absent field is 0 (0 new cards a day; leech action 0 is suspend), not Anki's default.
 */
export function deckConfigFromProtobuf(id: number, name: string, config: Uint8Array): AnkiDeckConfig {
  const fields = readFields(config);
  const n = (field: number) => fieldNumber(fields, field) ?? 0;
  const d = ankiDefaultDeckConfig;
  return {
    id,
    name,
    newPerDay: bounded(n(9), d.newPerDay, deckConfigRanges.perDay),
    reviewsPerDay: bounded(n(10), d.reviewsPerDay, deckConfigRanges.perDay),
    leechThreshold: bounded(n(22), d.leechThreshold, deckConfigRanges.leechThreshold),
    leechAction: n(21) === 1 ? "tag_only" : "suspend",
    buryNew: n(27) === 1,
    buryReviews: n(28) === 1,
    buryInterdayLearning: n(29) === 1,
  };
}

/** A schema 11 deck's option group: its `conf`, or null for a filtered (`dyn`) deck. */
export function legacyDeckConfigId(value: unknown): number | null {
  const deck = object(value);
  if (deck.dyn === true || deck.dyn === 1) return null;
  return idOf(deck.conf) ?? ankiDefaultDeckConfig.id;
}

/** A schema 18 deck's `kind` (Deck.KindContainer): normal (1) holds config_id (1); filtered (2) has none. */
export function modernDeckConfigId(kind: Uint8Array): number | null {
  const fields = readFields(kind);
  const [normal] = fieldMessages(fields, 1);
  if (normal === undefined) return null;
  return fieldNumber(readFields(normal), 1) ?? 0;
}

/** Reads a group leniently: a group that cannot be read is left out, and its decks fall back as Anki's do. */
export function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof AnkiImportError) return undefined;
    throw error;
  }
}

/**
 * Each deck's group as Anki studies it: a deck whose group is missing uses
 * group 1, and when group 1 is missing too, Anki's defaults (added as group 1).
 */
export function resolveDeckConfigs(
  configs: AnkiDeckConfig[],
  deckConfigIds: Map<number, number | null>,
): { deckConfigs: AnkiDeckConfig[]; deckConfigIds: Map<number, number | null> } {
  const byId = new Map(configs.map((config) => [config.id, config]));
  const resolved = new Map<number, number | null>();
  for (const [deckId, configId] of deckConfigIds) {
    if (configId === null || byId.has(configId)) {
      resolved.set(deckId, configId);
      continue;
    }
    if (!byId.has(ankiDefaultDeckConfig.id)) byId.set(ankiDefaultDeckConfig.id, { ...ankiDefaultDeckConfig });
    resolved.set(deckId, ankiDefaultDeckConfig.id);
  }
  return { deckConfigs: [...byId.values()].sort((a, b) => a.id - b.id), deckConfigIds: resolved };
}
