/** `queryOptions` for every read: the key and the function that fetches it are one value. */
import { queryOptions } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import { engramKeys } from "./keys.js";

export function engramQueries(engram: Engram) {
  return {
    auth: {
      /** The signed-in user as the server sees them, or null. */
      user: () => queryOptions({ queryKey: engramKeys.auth.user(), queryFn: () => engram.auth.getUser() }),
    },
    profile: {
      get: () => queryOptions({ queryKey: engramKeys.profile.detail(), queryFn: () => engram.profile.get() }),
    },
    decks: {
      list: () => queryOptions({ queryKey: engramKeys.decks.list(), queryFn: () => engram.decks.list() }),
      detail: (deckId: string) =>
        queryOptions({ queryKey: engramKeys.decks.detail(deckId), queryFn: () => engram.decks.get(deckId) }),
      explore: (params: { search?: string; limit?: number; offset?: number } = {}) =>
        queryOptions({ queryKey: engramKeys.decks.explore(params), queryFn: () => engram.decks.explore(params) }),
    },
  };
}
