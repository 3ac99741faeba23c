/**
 * Card info, as Anki's: one card's note, deck and template, the caller's own
 * schedule of it with its current retrievability, and every answer the caller
 * gave it (docs/product.md §2). Nobody reads another user's schedule or
 * answers: RLS keeps both to their own user.
 */
import { builtInNoteTypes } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** FSRS-6's default decay (its 21st parameter), for a user who has not trained their own. */
export const defaultFsrsDecay = 0.1542;

/**
 * FSRS's forgetting curve: the chance of recalling a memory of stability
 * `stability` days after `elapsedDays`, R(t) = (1 + factor·t/S)^(−decay), with
 * the factor that makes R(S) = 90 %. The database computes `prop:r` the same way.
 */
export function retrievabilityAfter(elapsedDays: number, stability: number, decay = defaultFsrsDecay): number {
  const factor = 0.9 ** (-1 / decay) - 1;
  return (1 + (factor * Math.max(elapsedDays, 0)) / stability) ** -decay;
}

/** One answer the caller gave the card. */
export interface CardReview {
  reviewedAt: string;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
  rating: number;
  /** The card's state before the answer. */
  state: Tables<"review_logs">["state"];
  /** The interval the answer set, in days. */
  intervalDays: number;
  /** Stability after the answer, in days. */
  stability: number;
  /** Difficulty after the answer, 0 to 1 (Anki's percentage). */
  difficulty: number;
  durationMs: number;
}

export interface CardInfo {
  cardId: string;
  noteId: string;
  deckId: string;
  deckName: string;
  /** The note's sort field, as one line of plain text. */
  sortField: string;
  /** The note type's name: a built-in kind's Anki name or the custom note type's. */
  noteTypeName: string;
  /** The card's template, as the browser names it ("Card 2", "Cloze 3"). */
  template: string;
  added: string;
  firstReview: string | null;
  latestReview: string | null;
  /** The caller's schedule; null values for a card they have not studied (or when they are not a member). */
  state: Tables<"card_states">["state"] | null;
  due: string | null;
  intervalDays: number | null;
  stability: number | null;
  /** 0 to 1 (Anki's percentage). */
  difficulty: number | null;
  /** The chance of recalling the card now (whole days since the last review), 0 to 1. */
  retrievability: number | null;
  /** The decay of the caller's forgetting curve (their FSRS parameters' last). */
  decay: number;
  suspended: boolean;
  reviewCount: number;
  lapses: number;
  averageTimeMs: number | null;
  totalTimeMs: number;
  /** Every answer the caller gave the card, oldest first. */
  reviews: CardReview[];
}

const cardIdSchema = z.guid("Unknown card.");
const dayMs = 86_400_000;

/** Anki shows difficulty 1–10 as 0–100 %. */
const difficultyShare = (difficulty: number) => (difficulty - 1) / 9;

export function createCardInfo(supabase: EngramClient) {
  return {
    /** A card's info for the signed-in user; `not-found` when the card does not exist or its deck is not readable. */
    async get(cardId: string): Promise<CardInfo> {
      const id = validate(cardIdSchema, cardId);
      const me = await currentUserId(supabase);
      const cards = await run(
        supabase
          .from("cards")
          .select(
            "id, note_id, deck_id, ordinal, created_at, decks(name), notes(kind, sort_field, note_types(name, kind, templates))",
          )
          .eq("id", id),
      );
      const card = cards[0];
      if (!card?.notes || !card.decks) {
        throw new EngramError("not-found", "This card does not exist or is not shared with you.", { field: "card_id" });
      }
      const [states, logs, profiles] = await Promise.all([
        run(supabase.from("card_states").select("*").eq("card_id", id).eq("user_id", me)),
        run(
          supabase
            .from("review_logs")
            .select("reviewed_at, rating, state, scheduled_days, stability, difficulty, duration_ms")
            .eq("card_id", id)
            .eq("user_id", me)
            .order("reviewed_at"),
        ),
        run(supabase.from("profiles").select("fsrs_params").eq("id", me)),
      ]);
      const schedule = states[0];
      const decay = profiles[0]?.fsrs_params?.[20] ?? defaultFsrsDecay;
      const studied = schedule !== undefined && schedule.state !== "new";
      const totalTimeMs = logs.reduce((sum, log) => sum + log.duration_ms, 0);
      const note = card.notes;
      const retrievability =
        studied && schedule.last_review && schedule.stability > 0
          ? retrievabilityAfter(
              Math.floor((Date.now() - Date.parse(schedule.last_review)) / dayMs),
              schedule.stability,
              decay,
            )
          : null;
      return {
        cardId: card.id,
        noteId: card.note_id,
        deckId: card.deck_id,
        deckName: card.decks.name,
        sortField: note.sort_field,
        noteTypeName: note.note_types?.name ?? builtInName(note.kind),
        template: templateName(note, card.ordinal),
        added: card.created_at,
        firstReview: logs[0]?.reviewed_at ?? null,
        latestReview: logs.at(-1)?.reviewed_at ?? null,
        state: schedule?.state ?? null,
        due: studied ? schedule.due : null,
        intervalDays: studied ? schedule.scheduled_days : null,
        stability: studied ? schedule.stability : null,
        difficulty: studied ? difficultyShare(schedule.difficulty) : null,
        retrievability,
        decay,
        suspended: schedule?.suspended ?? false,
        reviewCount: logs.length,
        lapses: schedule?.lapses ?? 0,
        averageTimeMs: logs.length > 0 ? totalTimeMs / logs.length : null,
        totalTimeMs,
        reviews: logs.map((log) => ({
          reviewedAt: log.reviewed_at,
          rating: log.rating,
          state: log.state,
          intervalDays: log.scheduled_days,
          stability: log.stability,
          difficulty: difficultyShare(log.difficulty),
          durationMs: log.duration_ms,
        })),
      };
    },
  };
}

type NoteKind = Tables<"notes">["kind"];

function builtInName(kind: NoteKind): string {
  if (kind === "image_occlusion") return "Image Occlusion";
  if (kind === "custom") return "Custom";
  return builtInNoteTypes[kind].name;
}

function templateName(
  note: { kind: NoteKind; note_types: { kind: string; templates: unknown } | null },
  ordinal: number,
): string {
  if (note.kind === "cloze" || note.note_types?.kind === "cloze") return `Cloze ${ordinal}`;
  if (note.kind === "image_occlusion") return `Image Occlusion ${ordinal}`;
  const templates = Array.isArray(note.note_types?.templates)
    ? (note.note_types.templates as { name?: unknown }[])
    : [];
  const name = templates[ordinal - 1]?.name;
  return typeof name === "string" && name !== "" ? name : `Card ${ordinal}`;
}
