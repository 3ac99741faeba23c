/** Reading what to study: today's queue, and the user's scheduler settings. */
import { createScheduler, type Scheduler } from "@engram/core";
import { z } from "zod";
import type { Tables } from "../database.types.js";
import { run, validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import { type StudyCard, studyCardFromRow } from "./cards.js";

const queueOptionsSchema = z.object({
  deckId: z.guid("Unknown deck.").optional(),
  now: z.date("Give `now` as a Date.").optional(),
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
  return rows.map(studyCardFromRow);
}

/** The scheduler with the user's desired retention and trained parameters from their profile. */
export async function loadScheduler(supabase: EngramClient): Promise<Scheduler> {
  const userId = await currentUserId(supabase);
  const profile = await run<Pick<Tables<"profiles">, "desired_retention" | "fsrs_params">>(
    supabase.from("profiles").select("desired_retention, fsrs_params").eq("id", userId).single(),
  );
  return createScheduler({ desiredRetention: profile.desired_retention, params: profile.fsrs_params });
}
