/** `queryOptions` for every read: the key and the function that fetches it are one value. */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import {
  type ExploreParams,
  engramKeys,
  type NoteFilterParams,
  type NoteListParams,
  type NotePagesParams,
  type QueueParams,
  type ReviewStatsParams,
  type ScheduleParams,
  type UserStatsParams,
} from "./keys.js";

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
      /** Public decks; works signed out. */
      explore: (params: ExploreParams = {}) =>
        queryOptions({ queryKey: engramKeys.decks.explore(params), queryFn: () => engram.decks.explore(params) }),
    },
    members: {
      list: (deckId: string) =>
        queryOptions({ queryKey: engramKeys.members.list(deckId), queryFn: () => engram.members.list(deckId) }),
    },
    invites: {
      list: (deckId: string) =>
        queryOptions({ queryKey: engramKeys.invites.list(deckId), queryFn: () => engram.invites.list(deckId) }),
      /** Works signed out. */
      preview: (token: string) =>
        queryOptions({ queryKey: engramKeys.invites.preview(token), queryFn: () => engram.invites.preview(token) }),
    },
    notes: {
      list: (deckId: string, params: NoteListParams = {}) =>
        queryOptions({
          queryKey: engramKeys.notes.list(deckId, params),
          queryFn: () => engram.notes.list(deckId, params),
        }),
      /** Pages of `pageSize` notes fetched as a list scrolls; each page carries the total. */
      pages: (deckId: string, params: NotePagesParams = {}, pageSize = 100) =>
        infiniteQueryOptions({
          queryKey: engramKeys.notes.pages(deckId, params),
          queryFn: ({ pageParam }) => engram.notes.list(deckId, { ...params, limit: pageSize, offset: pageParam }),
          initialPageParam: 0,
          getNextPageParam: (last, _pages, offset) =>
            offset + last.notes.length < last.total && last.notes.length > 0 ? offset + last.notes.length : undefined,
        }),
      /** Every matching note's id (up to the bulk limit), for "select all". */
      ids: (deckId: string, params: NoteFilterParams = {}) =>
        queryOptions({
          queryKey: engramKeys.notes.ids(deckId, params),
          queryFn: () => engram.notes.ids(deckId, params),
        }),
      detail: (noteId: string) =>
        queryOptions({ queryKey: engramKeys.notes.detail(noteId), queryFn: () => engram.notes.get(noteId) }),
    },
    cards: {
      forNote: (noteId: string) =>
        queryOptions({ queryKey: engramKeys.cards.forNote(noteId), queryFn: () => engram.cards.listForNote(noteId) }),
      schedules: (params: ScheduleParams = {}) =>
        queryOptions({ queryKey: engramKeys.cards.schedules(params), queryFn: () => engram.cards.schedules(params) }),
    },
    study: {
      queue: (params: QueueParams = {}) =>
        queryOptions({ queryKey: engramKeys.study.queue(params), queryFn: () => engram.study.queue(params) }),
    },
    stats: {
      user: (params: UserStatsParams = {}) =>
        queryOptions({ queryKey: engramKeys.stats.user(params), queryFn: () => engram.stats.user(params) }),
      decks: () => queryOptions({ queryKey: engramKeys.stats.decks(), queryFn: () => engram.stats.decks() }),
      reviews: (params: ReviewStatsParams = {}) =>
        queryOptions({ queryKey: engramKeys.stats.reviews(params), queryFn: () => engram.stats.reviews(params) }),
      /** The simulator's inputs and the recommended retention; refetched when schedules, limits or parameters change. */
      workload: () => queryOptions({ queryKey: engramKeys.stats.workload(), queryFn: () => engram.stats.workload() }),
    },
    imports: {
      list: () => queryOptions({ queryKey: engramKeys.imports.list(), queryFn: () => engram.storage.importJobs() }),
      detail: (jobId: string) =>
        queryOptions({ queryKey: engramKeys.imports.detail(jobId), queryFn: () => engram.storage.importJob(jobId) }),
    },
    exports: {
      list: () => queryOptions({ queryKey: engramKeys.exports.list(), queryFn: () => engram.storage.listExports() }),
    },
  };
}
