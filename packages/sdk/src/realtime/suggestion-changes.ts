/**
 * `engram.suggestions`' live updates: built with the SDK, as the subscriptions
 * start with the screens; the rest of `engram.suggestions` loads with its
 * first call (suggestions.ts).
 */
import { z } from "zod/mini";
import { validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { SuggestionEvent } from "../suggestions.js";
import type { EngramClient } from "../supabase-client.js";
import { type ResyncEvent, type SubscriptionOptions, subscribeToChanges, type Unsubscribe } from "./changes.js";
import { afterSetup, userTopic } from "./subscriptions.js";

const deckIdSchema = z.guid("Unknown id.");

export function createSuggestionChanges(supabase: EngramClient) {
  return {
    /** Suggestions of a deck made, reviewed or closed, for its members (maintainers refetch their queue). */
    onDeckChanges(
      deckId: string,
      listener: (event: SuggestionEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      const id = validate(deckIdSchema, deckId);
      return subscribeToChanges(supabase, `deck:${id}`, ["note_suggestions"], listener, options);
    },

    /** The user's own suggestions made or reviewed, on any of their devices. */
    onOwnChanges(
      listener: (event: SuggestionEvent | ResyncEvent) => void,
      options: SubscriptionOptions = {},
    ): Unsubscribe {
      return afterSetup(async () => {
        const userId = await currentUserId(supabase);
        return subscribeToChanges(supabase, userTopic(userId), ["note_suggestions"], listener, options);
      }, options.onError);
    },
  };
}
