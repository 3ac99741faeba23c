/**
 * `engram.realtime`: typed live updates. Subscriptions listen on the private
 * topics `user:<id>` and `deck:<id>` (one channel per topic, shared), get
 * `{ table, type, ids }` (what changed, never its contents: refetch it),
 * report `{ type: "resync" }` when they join again after a drop or a new token
 * (refetch what may have been missed), and send failures to `onError` as an
 * EngramError instead of throwing.
 */
import { z } from "zod/mini";
import type { EngramError } from "./errors.js";
import { loadOnce } from "./lazy-client.js";
import type { DeckRoom, JoinDeckOptions } from "./realtime/deck-room.js";
import { pendingDeckRoom } from "./realtime/pending-deck-room.js";
import { createSubscriptions } from "./realtime/subscriptions.js";
import { validate } from "./request.js";
import type { EngramClient } from "./supabase-client.js";

export type {
  ChangeTable,
  ChangeType,
  ResyncEvent,
  SubscriptionOptions,
  TableChange,
  Unsubscribe,
} from "./realtime/changes.js";
export type { DeckActivity, DeckPresence, DeckRoom, EditingSignal, JoinDeckOptions } from "./realtime/deck-room.js";
export type {
  DeckContentEvent,
  ImportProgressEvent,
  ImportProgressOptions,
  OwnMembershipEvent,
  OwnPersonalNotesEvent,
  OwnScheduleEvent,
} from "./realtime/subscriptions.js";

const deckIdSchema = z.guid("Unknown deck.");
const activitySchema = z.enum(["viewing", "editing", "studying"]);
const fieldNameSchema = z.nullable(z.string().check(z.minLength(1), z.maxLength(200)));
const joinOptionsSchema = z.object({
  activity: z.optional(activitySchema),
  displayName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
  avatarPath: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
});

type RoomCode = typeof import("./realtime/deck-room.js");
let roomCode: RoomCode | undefined;
// The room's code loads with the first join; a join after a failed load tries again.
const loadRoomCode = loadOnce(() =>
  import("./realtime/deck-room.js").then((module) => {
    roomCode = module;
    return module;
  }),
);

export function createRealtime(supabase: EngramClient) {
  return {
    ...createSubscriptions(supabase),

    /**
     * Joins the deck's room (presence and editing signals) on its private
     * channel. Throws `validation` for bad input; a refused join (not a member)
     * reaches `options.onError` as `permission-denied`.
     */
    joinDeck(deckId: string, options: JoinDeckOptions): DeckRoom {
      const id = validate(deckIdSchema, deckId);
      const checked = validate(joinOptionsSchema, options);
      const joinOptions = { ...checked, ...(options.onError ? { onError: options.onError } : {}) };
      // The room's code loads with the first join: most screens never open one.
      const room = roomCode
        ? roomCode.joinDeckRoom(supabase, id, joinOptions)
        : pendingDeckRoom(
            id,
            // loadOnce rejects with an EngramError.
            loadRoomCode().catch((error: EngramError) => {
              options.onError?.(error);
              throw error;
            }),
            () => (roomCode as RoomCode).joinDeckRoom(supabase, id, joinOptions),
          );
      return {
        ...room,
        setActivity: (activity) => room.setActivity(validate(activitySchema, activity)),
        startEditing: (noteId) => room.startEditing(validate(z.guid("Unknown note."), noteId)),
        focusField: (field) => room.focusField(validate(fieldNameSchema, field)),
      };
    },
  };
}
