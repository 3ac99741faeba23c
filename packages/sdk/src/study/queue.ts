/** Reading what to study: today's queue, and the user's scheduler settings. */
import { createScheduler, type NoteType, type Scheduler } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "../database.types.js";
import { run, validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import { type StudyCard, studyCardFromRow } from "./cards.js";

const queueOptionsSchema = z.object({
  deckId: z.optional(z.guid("Unknown deck.")),
  now: z.optional(z.date("Give `now` as a Date.")),
});
export type QueueOptions = z.input<typeof queueOptionsSchema>;

/** Today's cards in study order (learning, then reviews, then new), within the daily limits. */
export async function fetchQueue(supabase: EngramClient, options: QueueOptions = {}): Promise<StudyCard[]> {
  const { deckId, now } = validate(queueOptionsSchema, options);
  const rows = await run(
    supabase.rpc("study_queue", {
      ...(deckId === undefined ? {} : { p_deck_id: deckId }),
      ...(now === undefined ? {} : { p_now: now.toISOString() }),
    }),
  );
  return withNoteTypes(supabase, rows.map(studyCardFromRow));
}

/**
 * Custom notes render from their note type: each such note gets its type,
 * read once per queue (two small reads, and none for a queue without them).
 */
export async function withNoteTypes(supabase: EngramClient, cards: StudyCard[]): Promise<StudyCard[]> {
  const noteIds = [...new Set(cards.filter((card) => card.note.kind === "custom").map((card) => card.note.id))];
  if (noteIds.length === 0) return cards;
  const notes = (
    await Promise.all(
      chunks(noteIds).map((ids) => run(supabase.from("notes").select("id, note_type_id").in("id", ids))),
    )
  ).flat();
  const typeIds = [...new Set(notes.flatMap((note) => (note.note_type_id ? [note.note_type_id] : [])))];
  const types = (
    await Promise.all(
      chunks(typeIds).map((ids) =>
        run(supabase.from("note_types").select("id, name, kind, fields, templates, css").in("id", ids)),
      ),
    )
  ).flat();
  const typeById = new Map(types.map(({ id, ...type }) => [id, type as NoteType]));
  const typeOfNote = new Map(notes.map((note) => [note.id, typeById.get(note.note_type_id ?? "")]));
  return cards.map((card) => {
    const noteType = typeOfNote.get(card.note.id);
    return noteType ? { ...card, note: { ...card.note, noteType } as StudyCard["note"] } : card;
  });
}

/** The scheduler with the user's desired retention and trained parameters from their profile. */
export async function loadScheduler(supabase: EngramClient): Promise<Scheduler> {
  const userId = await currentUserId(supabase);
  const profile = await run<Pick<Tables<"profiles">, "desired_retention" | "fsrs_params">>(
    supabase.from("profiles").select("desired_retention, fsrs_params").eq("id", userId).single(),
  );
  return createScheduler({ desiredRetention: profile.desired_retention, params: profile.fsrs_params });
}

/** Ids in groups small enough for one request's URL. */
function chunks(ids: string[], size = 100): string[][] {
  const groups: string[][] = [];
  for (let at = 0; at < ids.length; at += size) groups.push(ids.slice(at, at + size));
  return groups;
}
