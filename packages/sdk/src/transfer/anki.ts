/**
 * An Anki package, read on the device by @engram/core/import, as staged notes:
 * fields sanitised, tags made valid, each note's deck path kept (as the deck
 * tree to make, or as a tag when the package spans several decks and goes into
 * one deck), and (when asked) each card's schedule and review
 * history with FSRS memory states replayed from that history.
 */
import {
  customFieldsSchema,
  hasContent,
  limits,
  type NoteKind,
  noteInputSchema,
  sanitizeCardHtml,
  validateNoteType,
} from "@engram/core";
import { type AnkiNote, type AnkiPackage, type AnkiReview, scheduleFromAnki } from "@engram/core/import";
import { stableUuids } from "./ids.js";
import type {
  SkipTally,
  StagedCard,
  StagedDeckPreset,
  StagedNote,
  StagedNoteType,
  StagedPreset,
  StagedReview,
} from "./staged.js";

export type AnkiStagingOptions = {
  includeSchedule: boolean;
  /** Keys review ids to the target deck, so one history imported into two decks lands in both. */
  deckKey: string;
  /** Each note goes to the deck of its Anki deck path under the target (instead of a deck tag). */
  deckTree?: boolean;
  params?: readonly number[] | null;
  now?: Date;
};

/** Anki's tags allow what Engram's do not (length, count); deck names may hold spaces. */
function tagsFor(note: AnkiNote, deckTag: string | null, skipped: SkipTally): string[] {
  const tags = [...note.tags, ...(deckTag ? [deckTag] : [])]
    .map((tag) => tag.replace(/\s+/gu, "_"))
    .filter((tag) => tag.length > 0);
  const valid = [...new Set(tags.map((tag) => [...tag].slice(0, limits.tagLength).join("")))];
  if (valid.length > limits.tagsPerNote) skipped.add("tags-over-limit", valid.length - limits.tagsPerNote);
  return valid.slice(0, limits.tagsPerNote);
}

function deckTagOf(deckName: string): string {
  return deckName.replace(/\s+/gu, "_");
}

/** Anki's deck names, as many as there are decks with notes, sorted. */
export function ankiDeckNames(pkg: AnkiPackage): string[] {
  return [...new Set(pkg.notes.flatMap((note) => note.cards.map((card) => card.deckName)))].sort();
}

/**
 * An Anki deck name ("Old Decks::Board Review 2023") as the path of decks
 * Engram makes for it: each name trimmed and at most 120 characters, empty
 * ones left out, at most 9 levels (deeper decks' notes go to the ninth).
 */
export function deckPathOf(deckName: string): string[] {
  return deckName
    .split("::")
    .map((name) => [...name.replace(/\s+/gu, " ").trim()].slice(0, 120).join("").trim())
    .filter((name) => name.length > 0)
    .slice(0, 9);
}

/**
 * The option groups of the decks an import makes, as staged presets, and the
 * deck each goes to: with a deck tree, every deck on a path with notes; into
 * one deck, that deck when all the notes' Anki decks share one group. Groups
 * no such deck uses are left out. finish_import gives them only to decks it
 * (or start_import) made, so an import into an existing deck changes no
 * deck's options.
 */
export function stageAnkiPresets(
  pkg: AnkiPackage,
  deckTree: boolean,
): { presets: StagedPreset[]; deckPresets: StagedDeckPreset[] } {
  const configs = new Map(pkg.deckConfigs.map((config) => [config.id, config]));
  const configOf = new Map(
    pkg.decks.map((deck) => [deck.name, configs.get(deck.configId ?? 1) ?? configs.get(1) ?? null]),
  );
  const byPath = new Map<string, { deck: string[]; preset: string }>();
  const noteDecks = ankiDeckNames(pkg);
  if (deckTree) {
    for (const name of noteDecks) {
      const parts = name.split("::");
      for (let depth = 1; depth <= parts.length; depth += 1) {
        const ankiName = parts.slice(0, depth).join("::");
        const path = deckPathOf(ankiName);
        const config = configOf.get(ankiName);
        if (config && path.length > 0) byPath.set(JSON.stringify(path), { deck: path, preset: String(config.id) });
      }
    }
  } else {
    const used = new Set(noteDecks.map((name) => configOf.get(name)));
    const [only] = used;
    if (used.size === 1 && only) byPath.set("[]", { deck: [], preset: String(only.id) });
  }
  const deckPresets = [...byPath.values()];
  const keys = new Set(deckPresets.map((entry) => entry.preset));
  const presets = pkg.deckConfigs
    .filter((config) => keys.has(String(config.id)))
    .map((config) => ({
      key: String(config.id),
      name: [...(config.name.trim() || "Default")].slice(0, 120).join("").trim(),
      new_per_day: config.newPerDay,
      reviews_per_day: config.reviewsPerDay,
      leech_threshold: config.leechThreshold,
      leech_action: config.leechAction,
      bury_new: config.buryNew,
      bury_reviews: config.buryReviews,
      bury_interday_learning: config.buryInterdayLearning,
      source_id: config.id,
    }));
  return { presets, deckPresets };
}

function sanitizeFields(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, html]) => [key, sanitizeCardHtml(html)]));
}

/**
 * The package's note types its custom notes use, as staged: Anki's definition as
 * written (templates and CSS are sanitised when a card is shown), keyed by Anki's
 * id. A type that breaks Engram's rules for note types (a front showing no field,
 * which Anki allows) is left out: its notes come in as basic notes, counted.
 */
export function stageAnkiNoteTypes(pkg: AnkiPackage, skipped: SkipTally): StagedNoteType[] {
  const used = new Map<number, number>();
  for (const note of pkg.notes) {
    if (note.kind === "custom") used.set(note.ankiNoteTypeId, (used.get(note.ankiNoteTypeId) ?? 0) + 1);
  }
  const staged: StagedNoteType[] = [];
  for (const type of pkg.noteTypes) {
    const notes = used.get(type.ankiNoteTypeId);
    if (!type.kept || !notes) continue;
    const checked = validateNoteType({
      name: type.name,
      kind: type.kind === "cloze" ? "cloze" : "standard",
      fields: type.fields,
      templates: type.cardTemplates,
      css: type.css,
    });
    if (!checked.ok) {
      skipped.add(`note-type-flattened: ${type.name}: ${checked.issues[0]?.message ?? "rejected"}`, notes);
      continue;
    }
    staged.push({ key: String(type.ankiNoteTypeId), ...checked.noteType, source_id: type.ankiNoteTypeId });
  }
  return staged;
}

type NoteInput =
  | {
      ok: true;
      kind: NoteKind;
      fields: StagedNote["fields"];
      tags: string[];
      noteType?: string;
      firstCardOnly?: boolean;
    }
  | { ok: false; reason: string };

/** A note of a note type Engram cannot take, as a basic note: its filled fields in order, the first as the front. */
function flattened(note: AnkiNote & { kind: "custom" }, tags: string[]): NoteInput {
  const values = note.noteType.fields
    .map((name) => sanitizeCardHtml(note.fields[name] ?? ""))
    .filter((value) => hasContent(value));
  const input = noteInputSchema.safeParse({
    kind: "basic",
    fields: { front: values[0] ?? "", back: values.slice(1).join("<br>") },
    tags,
  });
  if (!input.success) return { ok: false, reason: `invalid-note: ${input.error.issues[0]?.message ?? "rejected"}` };
  return { ok: true, ...input.data, firstCardOnly: true };
}

/** A note as Engram takes it: a built-in kind checked by the note rules, a custom one by its type's fields. */
function noteInput(note: AnkiNote, tags: string[], noteTypes: ReadonlySet<string>): NoteInput {
  const fields = sanitizeFields(note.fields as Record<string, string>);
  if (note.kind === "custom") {
    const key = String(note.ankiNoteTypeId);
    if (!noteTypes.has(key)) return flattened(note, tags);
    const checked = customFieldsSchema(note.noteType, limits.fieldLength).safeParse(fields);
    if (!checked.success)
      return { ok: false, reason: `invalid-note: ${checked.error.issues[0]?.message ?? "rejected"}` };
    return { ok: true, kind: "custom", fields: checked.data as Record<string, string>, tags, noteType: key };
  }
  const input = noteInputSchema.safeParse({ kind: note.kind, fields, tags });
  if (!input.success) return { ok: false, reason: `invalid-note: ${input.error.issues[0]?.message ?? "rejected"}` };
  return { ok: true, ...input.data };
}

export async function stageAnkiNotes(
  pkg: AnkiPackage,
  options: AnkiStagingOptions,
  skipped: SkipTally,
  noteTypes: readonly StagedNoteType[] = [],
): Promise<StagedNote[]> {
  const noteTypeKeys = new Set(noteTypes.map((type) => type.key));
  const deckTree = options.deckTree ?? false;
  const tagDecks = !deckTree && ankiDeckNames(pkg).length > 1;
  // A custom note type yields one Engram note per card; each needs its own origin key.
  const perNote = new Map<number, number>();
  for (const note of pkg.notes) perNote.set(note.ankiNoteId, (perNote.get(note.ankiNoteId) ?? 0) + 1);
  const reviewsByCard = new Map<number, AnkiReview[]>();
  if (options.includeSchedule) {
    for (const review of pkg.reviews) {
      const list = reviewsByCard.get(review.ankiCardId);
      if (list) list.push(review);
      else reviewsByCard.set(review.ankiCardId, [review]);
    }
  }
  // One digest per card with history, all at once: awaited one card at a
  // time, the round trips to the digest took most of reading a large collection.
  const reviewIds = new Map<number, (id: number) => string>();
  const historyCards = [...reviewsByCard.keys()];
  const made = await Promise.all(historyCards.map((cardId) => stableUuids(`${options.deckKey}:${cardId}`)));
  historyCards.forEach((cardId, index) => {
    const ids = made[index];
    if (ids) reviewIds.set(cardId, ids);
  });
  const now = options.now ?? new Date();
  const buriedUntil = new Date(now.getTime() + 86_400_000).toISOString();

  const staged: StagedNote[] = [];
  const stagedCards = new Set<number>();
  for (const [index, note] of pkg.notes.entries()) {
    // Lets the host's other work run now and then (timers, sockets, a
    // cancel), as awaiting each card's digest used to.
    if (index % 250 === 249) await new Promise((resolve) => setTimeout(resolve, 0));
    const split = (perNote.get(note.ankiNoteId) ?? 1) > 1;
    const guid = split ? `${note.guid} card ${note.cards[0]?.ankiOrdinal ?? 0}` : note.guid;
    const input = noteInput(note, tagsFor(note, tagDecks ? deckTagOf(note.deckName) : null, skipped), noteTypeKeys);
    if (!input.ok) {
      skipped.add(input.reason);
      continue;
    }
    const cards: StagedCard[] = [];
    // A flattened note keeps its first card, as card 1.
    const noteCards = input.firstCardOnly
      ? note.cards.slice(0, 1).map((card) => ({ ...card, ordinal: 1 }))
      : note.cards;
    for (const card of noteCards) {
      const history = options.includeSchedule
        ? scheduleFromAnki(card, reviewsByCard.get(card.ankiCardId) ?? [], pkg.collection, {
            params: options.params ?? null,
            now,
          })
        : { schedule: null, reviews: [] };
      const reviewId = history.reviews.length > 0 ? reviewIds.get(card.ankiCardId) : undefined;
      const reviews = history.reviews.map(
        (review): StagedReview => [
          reviewId?.(review.ankiReviewId) ?? "",
          review.rating,
          review.state,
          review.due.toISOString(),
          review.stability,
          review.difficulty,
          review.elapsed_days,
          review.last_elapsed_days,
          review.scheduled_days,
          review.learning_steps,
          review.reviewed_at.toISOString(),
          review.duration_ms,
        ],
      );
      const schedule = history.schedule
        ? {
            ...history.schedule,
            due: history.schedule.due.toISOString(),
            last_review: history.schedule.last_review?.toISOString() ?? null,
          }
        : null;
      stagedCards.add(card.ankiCardId);
      cards.push({
        ordinal: card.ordinal,
        suspended: card.suspended,
        buried_until: card.buried ? buriedUntil : null,
        schedule,
        reviews,
      });
    }
    const deck = deckTree ? deckPathOf(note.deckName) : [];
    staged.push({
      guid,
      kind: input.kind,
      fields: input.fields,
      tags: input.tags,
      ...(input.noteType ? { note_type: input.noteType } : {}),
      cards,
      ...(deck.length > 0 ? { deck } : {}),
    });
  }
  if (options.includeSchedule) {
    for (const [cardId, reviews] of reviewsByCard) {
      if (!stagedCards.has(cardId)) skipped.add("review-of-skipped-card", reviews.length);
    }
  }
  return staged;
}
