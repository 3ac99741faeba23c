/**
 * Exporting a deck on the device: its notes, cards and media (and, when asked,
 * the caller's own schedule and history) as an Anki package Anki opens, or as CSV.
 */
import { type CardState, defaults, type NoteFields } from "@engram/core";
import { type ExportNote, type ExportPreset, type ExportReview, writeApkg, writeCsv } from "@engram/core/export";
import { z } from "zod/mini";
import type { Engram } from "../client.js";
import { EngramError } from "../errors.js";
import { run, runAllPages, validate } from "../request.js";
import type { EngramClient } from "../supabase-client.js";
import type { Wasm } from "./read.js";
import { mediaNamesIn } from "./references.js";

export type ExportOptions = { format: "apkg" | "csv"; includeSchedule?: boolean; wasm?: Wasm };
export type ExportedFile = { name: string; mime: string; data: Uint8Array };

const deckIdSchema = z.guid("Unknown deck.");
type NoteTypeRow = {
  id: string;
  name: string;
  kind: "standard" | "cloze";
  fields: string[];
  templates: { name: string; front: string; back: string }[];
  css: string;
  source_id: number | null;
};

type NoteRow = {
  id: string;
  kind: ExportNote["kind"];
  fields: NoteFields | Record<string, string>;
  tags: string[];
  source_guid: string | null;
  cards: { id: string; ordinal: number }[];
  note_types: NoteTypeRow | null;
};

async function readNotes(supabase: EngramClient, deckId: string): Promise<NoteRow[]> {
  return runAllPages<NoteRow>((from, to) =>
    supabase
      .from("notes")
      .select(
        "id, kind, fields, tags, source_guid, cards(id, ordinal), note_types(id, name, kind, fields, templates, css, source_id)",
      )
      .eq("deck_id", deckId)
      .order("created_at")
      .order("id")
      .range(from, to),
  );
}

type MyLayer = { tags: Map<string, string[]>; text: Map<string, string> };

/**
 * The exporting user's own tags and My notes by note (docs/product.md §3), read
 * for the whole deck at once rather than per note; a signed-out reader has none.
 */
async function readMyLayer(engram: Engram, deckId: string): Promise<MyLayer> {
  // Only the signed-in may read personal notes. The client may hold a token
  // without a session (the transfer worker's), so the server's refusal says
  // who is signed out.
  const rows = await engram.personalNotes.listForDeck(deckId).catch((error: unknown) => {
    if (error instanceof EngramError && error.code === "permission-denied") return [];
    throw error;
  });
  return {
    tags: new Map(rows.filter((row) => row.tags.length > 0).map((row) => [row.note_id, row.tags])),
    text: new Map(rows.filter((row) => row.text !== "").map((row) => [row.note_id, row.text])),
  };
}

/** A note's tags for an export: its own, then the exporting user's own that it lacks. */
const exportedTags = (note: NoteRow, mine: MyLayer) => [
  ...note.tags,
  ...(mine.tags.get(note.id) ?? []).filter((tag) => !note.tags.includes(tag)),
];

type StateRow = {
  card_id: string;
  state: CardState;
  due: string;
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
  last_review: string | null;
  scheduled_days: number;
  suspended: boolean;
};

async function readSchedules(supabase: EngramClient, deckId: string) {
  const rows = await runAllPages<StateRow>((from, to) =>
    supabase
      .from("card_states")
      .select("card_id, state, due, stability, difficulty, reps, lapses, last_review, scheduled_days, suspended")
      .eq("deck_id", deckId)
      .order("card_id")
      .range(from, to),
  );
  return new Map(rows.map((row) => [row.card_id, row]));
}

type LogRow = {
  card_id: string;
  reviewed_at: string;
  rating: 1 | 2 | 3 | 4;
  duration_ms: number;
  state: CardState;
  scheduled_days: number;
  last_elapsed_days: number;
};

/** Card ids go in the query string; a few hundred at a time keeps it short. */
const reviewChunk = 200;
/** How many chunks are read at once: a deck's history in a few round trips' time, not one per chunk. */
const reviewReadsAtOnce = 6;

async function readReviews(supabase: EngramClient, cardIds: string[]): Promise<ExportReview[]> {
  const chunks: string[][] = [];
  for (let start = 0; start < cardIds.length; start += reviewChunk) {
    chunks.push(cardIds.slice(start, start + reviewChunk));
  }
  const read = new Array<ExportReview[]>(chunks.length);
  let next = 0;
  const reader = async () => {
    for (let index = next++; index < chunks.length; index = next++) {
      read[index] = await readChunkReviews(supabase, chunks[index] as string[]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(reviewReadsAtOnce, chunks.length) }, reader));
  // In the cards' order, as one read after another gave them.
  return read.flat();
}

async function readChunkReviews(supabase: EngramClient, chunk: string[]): Promise<ExportReview[]> {
  const rows = await runAllPages<LogRow>((from, to) =>
    supabase
      .from("review_logs")
      .select("card_id, reviewed_at, rating, duration_ms, state, scheduled_days, last_elapsed_days")
      .in("card_id", chunk)
      .order("reviewed_at")
      .order("id")
      .range(from, to),
  );
  return rows.map((row) => ({
    cardId: row.card_id,
    reviewedAt: row.reviewed_at,
    rating: row.rating,
    durationMs: row.duration_ms,
    state: row.state,
    scheduledDays: row.scheduled_days,
    lastIntervalDays: row.last_elapsed_days,
  }));
}

async function readMedia(supabase: EngramClient, deckId: string, notes: NoteRow[]) {
  const used = mediaNamesIn(notes.flatMap((note) => Object.values(note.fields as Record<string, string>)));
  const media: { name: string; data: Uint8Array }[] = [];
  for (const name of [...used].sort()) {
    const { data, error } = await supabase.storage.from("media").download(`${deckId}/${name}`);
    // A name the notes use but storage lacks is exported as text only, as Anki does with missing media.
    if (error || !data) continue;
    media.push({ name, data: new Uint8Array(await data.arrayBuffer()) });
  }
  return media;
}

/**
 * A note as the package writer takes it: a custom note with its note type (under
 * the Anki id it was imported with, so Anki matches it again), the built-in kinds
 * as Anki's stock note types.
 */
function exportNote(note: NoteRow, cards: ExportNote["cards"], mine: MyLayer): ExportNote | null {
  const base = {
    id: note.id,
    ...(note.source_guid && !note.source_guid.includes(" ") ? { guid: note.source_guid } : {}),
    tags: exportedTags(note, mine),
    cards,
  };
  if (note.kind === "custom") {
    const type = note.note_types;
    if (!type) return null;
    const { id, source_id, ...definition } = type;
    return {
      ...base,
      kind: "custom",
      fields: note.fields as Record<string, string>,
      noteType: { id, ...definition, sourceId: source_id === null ? null : Number(source_id) },
    };
  }
  return { ...base, kind: note.kind, fields: note.fields as NoteFields };
}

/**
 * The deck's preset as an Anki option group, when the user may read it (its
 * owner): null when the deck has none. A daily limit left to each member's
 * profile is written as Engram's default, as Anki needs a number.
 */
async function readPreset(supabase: EngramClient, presetId: string | null): Promise<ExportPreset | null> {
  if (!presetId) return null;
  const [preset] = await run(supabase.from("deck_presets").select("*").eq("id", presetId));
  if (!preset) return null;
  return {
    id: preset.id,
    name: preset.name,
    newPerDay: preset.new_per_day ?? defaults.newPerDay,
    reviewsPerDay: preset.reviews_per_day ?? defaults.reviewsPerDay,
    leechThreshold: preset.leech_threshold,
    leechAction: preset.leech_action,
    buryNew: preset.bury_new,
    buryReviews: preset.bury_reviews,
    buryInterdayLearning: preset.bury_interday_learning,
  };
}

function fileName(deckName: string, extension: string): string {
  const safe = deckName.replace(/[\\/:*?"<>|\p{Cc}]+/gu, " ").trim() || "deck";
  return `${safe}.${extension}`;
}

export async function exportDeck(engram: Engram, deckId: string, options: ExportOptions): Promise<ExportedFile> {
  const id = validate(deckIdSchema, deckId);
  const supabase = engram.supabase;
  const decks = await run(supabase.from("decks").select("id, name, preset_id").eq("id", id));
  const deck = decks[0];
  if (!deck) throw new EngramError("not-found", "This deck does not exist or is not shared with you.");
  const [notes, mine] = await Promise.all([readNotes(supabase, id), readMyLayer(engram, id)]);

  if (options.format === "csv") {
    const text = writeCsv(
      notes.map((note) => ({
        kind: note.kind,
        fields: note.fields,
        tags: exportedTags(note, mine),
        ...(mine.text.has(note.id) ? { myNotes: mine.text.get(note.id) } : {}),
      })),
    );
    return { name: fileName(deck.name, "csv"), mime: "text/csv", data: new TextEncoder().encode(text) };
  }

  const includeSchedule = options.includeSchedule ?? false;
  const cardIds = notes.flatMap((note) => note.cards.map((card) => card.id));
  const [schedules, reviews, media, preset] = await Promise.all([
    includeSchedule ? readSchedules(supabase, id) : new Map<string, StateRow>(),
    includeSchedule ? readReviews(supabase, cardIds) : [],
    readMedia(supabase, id, notes),
    readPreset(supabase, deck.preset_id),
  ]);
  const data = await writeApkg(
    {
      name: deck.name,
      notes: notes.flatMap((note) => {
        const cards = [...note.cards]
          .sort((a, b) => a.ordinal - b.ordinal)
          .map((card) => {
            const schedule = schedules.get(card.id);
            return {
              id: card.id,
              ordinal: card.ordinal,
              schedule: schedule ?? null,
              suspended: schedule?.suspended ?? false,
            };
          });
        const exported = exportNote(note, cards, mine);
        return exported ? [exported] : [];
      }),
      media,
      reviews,
      ...(preset ? { presets: [preset], deckPresets: { [deck.name]: preset.id } } : {}),
    },
    { includeSchedule, ...(options.wasm?.sqlJs ?? {}) },
  );
  return { name: fileName(deck.name, "apkg"), mime: "application/zip", data };
}
