/** The row-change streams the app listens to: own schedule and memberships, deck content, import progress. */
import { z } from "zod";
import { toEngramError } from "../errors.js";
import { validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  type ChangeBinding,
  type ResyncEvent,
  type Row,
  type RowChange,
  type SubscriptionOptions,
  subscribeToChanges,
  type TableName,
  type Unsubscribe,
} from "./changes.js";

/** The user's schedule changed elsewhere (another device answered, undid, suspended). */
export type OwnScheduleEvent =
  | RowChange<"card_states">
  | { table: "review_logs"; type: "insert"; row: Row<"review_logs">; commitTimestamp: string };

/**
 * Something in a deck changed. Note deletions carry only the note's id and, as
 * Postgres logs no deck for them, may name notes of other decks: removing an
 * unknown id is a no-op. Cards are deleted only with or through their note
 * (or deck), so their deletions come as that note's or deck's event.
 */
export type DeckContentEvent = RowChange<"decks"> | RowChange<"deck_members"> | RowChange<"notes"> | RowChange<"cards">;

/**
 * One of the user's own memberships changed: they joined a deck (an invite
 * accepted on any device), their role changed, or they left or were removed
 * (a delete carries the row's key, `deck_id` and `user_id`).
 */
export type OwnMembershipEvent = RowChange<"deck_members">;

/** An import job of the user was created or advanced. */
export type ImportProgressEvent = Extract<RowChange<"import_jobs">, { type: "insert" | "update" }>;

export interface ImportProgressOptions extends SubscriptionOptions {
  /** Only this job. */
  jobId?: string;
}

const idSchema = z.guid("Unknown id.");

/** Starts a subscription once an async step (reading the session) is done; stops it whenever asked. */
function afterSetup(setup: () => Promise<Unsubscribe>, onError: SubscriptionOptions["onError"]): Unsubscribe {
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
  const listen = <E>(
    name: string,
    bindings: ReadonlyArray<ChangeBinding<TableName>>,
    emit: (change: RowChange<TableName>) => E | null,
    listener: (event: E | ResyncEvent) => void,
    options: SubscriptionOptions,
  ) => subscribeToChanges(supabase, name, bindings, emit, listener, options);

  return {
    /**
     * The signed-in user's `card_states` changes and new `review_logs`, e.g. an
     * answer given on another device. Returns a function that unsubscribes.
     */
    onOwnSchedule(
      listener: (event: OwnScheduleEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        const mine = `user_id=eq.${userId}`;
        return listen(
          `own-schedule:${userId}`,
          [
            { table: "card_states", event: "*", filter: mine },
            { table: "review_logs", event: "INSERT", filter: mine },
          ],
          (change) => change as OwnScheduleEvent,
          listener,
          options,
        );
      }, options.onError);
    },

    /** The user's own `deck_members` rows as they are added, changed and deleted. */
    onOwnMemberships(
      listener: (event: OwnMembershipEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return listen<OwnMembershipEvent>(
          `own-memberships:${userId}`,
          [{ table: "deck_members", event: "*", filter: `user_id=eq.${userId}` }],
          // Where a server cannot filter deletes it sends them all; keep only the user's own.
          (change) => {
            const membership = change as OwnMembershipEvent;
            const row = membership.type === "delete" ? membership.old : membership.row;
            return row.user_id === userId ? membership : null;
          },
          listener,
          options,
        );
      }, options.onError);
    },

    /**
     * Changes to a deck the user belongs to: the deck row, its members, notes
     * and cards. Row-level security decides what arrives, so a deck the user
     * cannot read yields nothing. Throws `validation` for a malformed id.
     */
    onDeckContent(
      deckId: string,
      listener: (event: DeckContentEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      const id = validate(idSchema, deckId);
      const inDeck = `deck_id=eq.${id}`;
      return listen<DeckContentEvent>(
        `deck-content:${id}`,
        [
          { table: "decks", event: "*", filter: `id=eq.${id}` },
          { table: "deck_members", event: "*", filter: inDeck },
          { table: "notes", event: "INSERT", filter: inDeck },
          { table: "notes", event: "UPDATE", filter: inDeck },
          // Deleted notes have only their id in the log, so a deck filter would match none.
          { table: "notes", event: "DELETE" },
          { table: "cards", event: "INSERT", filter: inDeck },
          { table: "cards", event: "UPDATE", filter: inDeck },
        ],
        (change) => change as DeckContentEvent,
        listener,
        options,
      );
    },

    /** The user's import jobs as they are created and progress (or one job with `jobId`). */
    onImportProgress(
      listener: (event: ImportProgressEvent | ResyncEvent) => void,
      options: ImportProgressOptions = {},
    ): Unsubscribe {
      const jobId = options.jobId === undefined ? undefined : validate(idSchema, options.jobId);
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        const filter = jobId ? `id=eq.${jobId}` : `user_id=eq.${userId}`;
        return listen<ImportProgressEvent>(
          `import-progress:${jobId ?? userId}`,
          [
            { table: "import_jobs", event: "INSERT", filter },
            { table: "import_jobs", event: "UPDATE", filter },
          ],
          (change) => (change.type === "delete" ? null : (change as ImportProgressEvent)),
          listener,
          options,
        );
      }, options.onError);
    },
  };
}
