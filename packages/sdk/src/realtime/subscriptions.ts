/**
 * The change streams the app listens to: own schedule and memberships and
 * import progress on the user's own topic `user:<id>`, deck content on
 * `deck:<id>`. Each event names what changed, not how: refetch it.
 */
import { z } from "zod/mini";
import { toEngramError } from "../errors.js";
import { validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  type ResyncEvent,
  type SubscriptionOptions,
  subscribeToChanges,
  type TableChange,
  type Unsubscribe,
} from "./changes.js";

/**
 * The user's schedule changed elsewhere (another device answered, undid,
 * suspended): `card_states` with the cards' ids, `review_logs` with the
 * answers' ids, `study_day_extras` (more new cards today) with the decks'
 * ids. Schedules added or removed with cards and memberships come as
 * those changes, on the deck's topic or as a membership.
 */
export type OwnScheduleEvent = TableChange<"card_states" | "review_logs" | "study_day_extras">;

/**
 * Something in a deck changed: the deck row, its members (ids are the
 * members' user ids), note types, notes or cards. Cards that follow their note (added,
 * removed, moved with it) come as the note's change.
 */
export type DeckContentEvent = TableChange<"decks" | "deck_members" | "note_types" | "notes" | "cards">;

/**
 * One of the user's own memberships changed: they joined a deck (an invite
 * accepted on any device), their role changed, or they left or were removed.
 * `ids` are the decks' ids.
 */
export type OwnMembershipEvent = TableChange<"deck_members">;

/** The user's own tags and My notes changed (on any device); `ids` are the notes' ids. */
export type OwnPersonalNotesEvent = TableChange<"personal_notes">;

/** Import jobs of the user were created, advanced or removed; `ids` are the jobs' ids. */
export type ImportProgressEvent = TableChange<"import_jobs">;

export interface ImportProgressOptions extends SubscriptionOptions {
  /** Only this job. */
  jobId?: string;
}

const idSchema = z.guid("Unknown id.");

export const userTopic = (userId: string) => `user:${userId}`;

/** Starts a subscription once an async step (reading the session) is done; stops it whenever asked. */
export function afterSetup(setup: () => Promise<Unsubscribe>, onError: SubscriptionOptions["onError"]): Unsubscribe {
  let stopped = false;
  const started = setup().then(
    (stop) => {
      if (stopped) void stop();
      return stop;
    },
    (error: unknown) => {
      if (!stopped) onError?.(toEngramError(error));
      return null;
    },
  );
  return async () => {
    stopped = true;
    const stop = await started;
    await stop?.();
  };
}

export function createSubscriptions(supabase: EngramClient) {
  return {
    /**
     * The signed-in user's schedule changes and answers, e.g. an answer given
     * on another device. Returns a function that unsubscribes.
     */
    onOwnSchedule(
      listener: (event: OwnScheduleEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return subscribeToChanges(
          supabase,
          userTopic(userId),
          ["card_states", "review_logs", "study_day_extras"],
          listener,
          options,
        );
      }, options.onError);
    },

    /** The user's own memberships as they are added, changed and removed. */
    onOwnMemberships(
      listener: (event: OwnMembershipEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return subscribeToChanges(supabase, userTopic(userId), ["deck_members"], listener, options);
      }, options.onError);
    },

    /** The user's own tags and My notes as they are saved and cleared, on any of their devices. */
    onOwnPersonalNotes(
      listener: (event: OwnPersonalNotesEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return subscribeToChanges(supabase, userTopic(userId), ["personal_notes"], listener, options);
      }, options.onError);
    },

    /**
     * Changes to a deck the user belongs to: the deck row, its members, note
     * types, notes and cards. Only members may join the deck's topic: anyone else gets
     * `permission-denied` in `onError`. Throws `validation` for a malformed id.
     */
    onDeckContent(
      deckId: string,
      listener: (event: DeckContentEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      const id = validate(idSchema, deckId);
      return subscribeToChanges(
        supabase,
        `deck:${id}`,
        ["decks", "deck_members", "note_types", "notes", "cards"],
        listener,
        options,
      );
    },

    /** The user's import jobs as they are created and progress (or one job with `jobId`). */
    onImportProgress(
      listener: (event: ImportProgressEvent | ResyncEvent) => void,
      options: ImportProgressOptions = {},
    ): Unsubscribe {
      const jobId = options.jobId === undefined ? undefined : validate(idSchema, options.jobId).toLowerCase();
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return subscribeToChanges(
          supabase,
          userTopic(userId),
          ["import_jobs"],
          listener,
          options,
          // A message listing no ids touched too many jobs to name: it may include this one.
          (change) => jobId === undefined || change.ids === null || change.ids.includes(jobId),
        );
      }, options.onError);
    },
  };
}
