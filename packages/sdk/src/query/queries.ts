/** `queryOptions` for every read: the key and the function that fetches it are one value. */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import { signedUrlExpiresAt } from "../storage/signed-url-expiry.js";
import {
  type BrowsePagesParams,
  type CustomStudyParams,
  type DeckHistoryParams,
  type ExplorePagesParams,
  type ExploreParams,
  engramKeys,
  type FindReplaceParams,
  type NoteFilterParams,
  type NoteListParams,
  type NotePagesParams,
  type QueueParams,
  type ReviewStatsParams,
  type ScheduleParams,
  type UserStatsParams,
} from "./keys.js";

/** Signed avatar links last an hour: one per picture, reused for half of that. */
const avatarUrlLifetime = 30 * 60_000;
/** Signed media links last an hour too; renewed well before. */
const mediaUrlLifetime = 50 * 60_000;
/** How long before a link stops working it counts as stale. */
const linkRenewalMargin = 60_000;

/**
 * A signed link is fresh for `lifetime`, or until a minute before it stops
 * working if that is sooner: links end with the access token they were made
 * with, which may have had less than an hour left.
 */
const linkStaleTime =
  (lifetime: number) =>
  ({ state }: { state: { data?: string | undefined; dataUpdatedAt: number } }) => {
    const expiresAt = state.data ? signedUrlExpiresAt(state.data) : null;
    if (expiresAt === null) return lifetime;
    return Math.max(0, Math.min(lifetime, expiresAt - linkRenewalMargin - state.dataUpdatedAt));
  };

export function engramQueries(engram: Engram) {
  return {
    auth: {
      /** The signed-in user as the server sees them, or null. */
      user: () => queryOptions({ queryKey: engramKeys.auth.user(), queryFn: () => engram.auth.getUser() }),
      /** The user's authenticator apps. */
      factors: () =>
        queryOptions({ queryKey: engramKeys.auth.factors(), queryFn: () => engram.auth.mfa.listFactors() }),
      /**
       * Where the user's session stands (aal1 or aal2). Fresh until something
       * changes it: a code entered, a factor added or removed invalidates it.
       */
      assurance: (userId: string | null) =>
        queryOptions({
          queryKey: engramKeys.auth.userAssurance(userId),
          queryFn: () => engram.auth.mfa.assurance(),
          staleTime: Number.POSITIVE_INFINITY,
        }),
    },
    profile: {
      get: () => queryOptions({ queryKey: engramKeys.profile.detail(), queryFn: () => engram.profile.get() }),
      /** A signed link to a picture (`avatar_path` of a profile or member); none to fetch without a path. */
      avatarUrl: (path: string | null) =>
        queryOptions({
          queryKey: engramKeys.profile.avatarUrl(path),
          queryFn: () => engram.storage.avatarUrl(path ?? ""),
          enabled: Boolean(path),
          staleTime: linkStaleTime(avatarUrlLifetime),
        }),
    },
    decks: {
      list: () => queryOptions({ queryKey: engramKeys.decks.list(), queryFn: () => engram.decks.list() }),
      /** The id of the user's sample deck while it exists, else null. */
      sample: () => queryOptions({ queryKey: engramKeys.decks.sample(), queryFn: () => engram.sampleDeck.find() }),
      detail: (deckId: string) =>
        queryOptions({ queryKey: engramKeys.decks.detail(deckId), queryFn: () => engram.decks.get(deckId) }),
      /** Public decks; works signed out. */
      explore: (params: ExploreParams = {}) =>
        queryOptions({ queryKey: engramKeys.decks.explore(params), queryFn: () => engram.decks.explore(params) }),
      /** Public decks in pages of `pageSize` fetched as the list scrolls; a short page is the last one. */
      explorePages: (params: ExplorePagesParams = {}, pageSize = 20) =>
        infiniteQueryOptions({
          queryKey: engramKeys.decks.explorePages(params),
          queryFn: ({ pageParam }) => engram.decks.explore({ ...params, limit: pageSize, offset: pageParam }),
          initialPageParam: 0,
          getNextPageParam: (last, pages) => (last.length === pageSize ? pages.length * pageSize : undefined),
        }),
    },
    noteHistory: {
      /** A note's versions, newest first, with their authors. */
      note: (noteId: string) =>
        queryOptions({ queryKey: engramKeys.noteHistory.note(noteId), queryFn: () => engram.noteHistory.list(noteId) }),
      /** A deck's changes in a period, newest first, in pages of `pageSize`. */
      deckPages: (deckId: string, params: DeckHistoryParams = {}, pageSize = 50) =>
        infiniteQueryOptions({
          queryKey: engramKeys.noteHistory.period(deckId, params),
          queryFn: ({ pageParam }) =>
            engram.noteHistory.deckHistory(deckId, { ...params, limit: pageSize, cursor: pageParam ?? undefined }),
          initialPageParam: null as string | null,
          getNextPageParam: (last) => last.nextCursor,
        }),
      /** What others changed in the deck since `since`, or since the user last studied it. */
      changes: (deckId: string, since?: string) =>
        queryOptions({
          queryKey: engramKeys.noteHistory.changes(deckId, since ?? null),
          queryFn: () => engram.noteHistory.deckChanges(deckId, since),
        }),
    },
    deletedNotes: {
      /** The deck's notes deleted in the last 30 days, newest first. */
      deck: (deckId: string) =>
        queryOptions({
          queryKey: engramKeys.deletedNotes.deck(deckId),
          queryFn: () => engram.deletedNotes.list(deckId),
        }),
    },
    presets: {
      /** The user's presets with how many decks use each. */
      list: () => queryOptions({ queryKey: engramKeys.presets.list(), queryFn: () => engram.presets.list() }),
    },
    suggestions: {
      /** A deck's review queue (owners and editors), oldest first, with each note as it is now. */
      pending: (deckId: string) =>
        queryOptions({
          queryKey: engramKeys.suggestions.pending(deckId),
          queryFn: () => engram.suggestions.pending(deckId),
        }),
      pendingCount: (deckId: string) =>
        queryOptions({
          queryKey: engramKeys.suggestions.pendingCount(deckId),
          queryFn: () => engram.suggestions.pendingCount(deckId),
        }),
      /** The user's own suggestions with their outcomes. */
      mine: () => queryOptions({ queryKey: engramKeys.suggestions.mine(), queryFn: () => engram.suggestions.mine() }),
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
      /** The browser's sorted pages of notes or cards (`browse.page`) fetched as the list scrolls; the first carries the total. */
      browsePages: (deckId: string, params: BrowsePagesParams = {}, pageSize = 100) =>
        infiniteQueryOptions({
          queryKey: engramKeys.notes.browse(deckId, params),
          queryFn: ({ pageParam }) => engram.browse.page(deckId, { ...params, limit: pageSize, offset: pageParam }),
          initialPageParam: 0,
          getNextPageParam: (last, _pages, offset) =>
            last.rows.length === pageSize ? offset + last.rows.length : undefined,
        }),
      /** Every matching note's id (up to the bulk limit), for "select all". */
      ids: (deckId: string, params: NoteFilterParams = {}) =>
        queryOptions({
          queryKey: engramKeys.notes.ids(deckId, params),
          queryFn: () => engram.notes.ids(deckId, params),
        }),
      detail: (noteId: string) =>
        queryOptions({ queryKey: engramKeys.notes.detail(noteId), queryFn: () => engram.notes.get(noteId) }),
      /** The notes a find and replace works on, with their fields and versions (`previewReplace` says what would change). */
      findReplace: (deckId: string, params: FindReplaceParams) =>
        queryOptions({
          queryKey: engramKeys.notes.findReplace(deckId, params),
          queryFn: () => engram.findReplace.load(params.noteIds),
        }),
    },
    noteTypes: {
      /** A deck's note types, by name; a deck has few, so the study screen and editors read them whole. */
      list: (deckId: string) =>
        queryOptions({ queryKey: engramKeys.noteTypes.deck(deckId), queryFn: () => engram.noteTypes.list(deckId) }),
      /** The note types a deck's notes may use: its own and its ancestors', nearest first. */
      usable: (deckId: string) =>
        queryOptions({
          queryKey: engramKeys.noteTypes.usable(deckId),
          queryFn: () => engram.noteTypes.list(deckId, { inherited: true }),
        }),
      detail: (noteTypeId: string) =>
        queryOptions({
          queryKey: engramKeys.noteTypes.detail(noteTypeId),
          queryFn: () => engram.noteTypes.get(noteTypeId),
        }),
    },
    personalNotes: {
      /** The user's own tags and My notes on a note, or null. */
      detail: (noteId: string) =>
        queryOptions({
          queryKey: engramKeys.personalNotes.detail(noteId),
          queryFn: () => engram.personalNotes.get(noteId),
        }),
      /** The user's own tags and My notes on a deck's notes. */
      deck: (deckId: string) =>
        queryOptions({
          queryKey: engramKeys.personalNotes.deck(deckId),
          queryFn: () => engram.personalNotes.listForDeck(deckId),
        }),
    },
    cards: {
      forNote: (noteId: string) =>
        queryOptions({ queryKey: engramKeys.cards.forNote(noteId), queryFn: () => engram.cards.listForNote(noteId) }),
      schedules: (params: ScheduleParams = {}) =>
        queryOptions({ queryKey: engramKeys.cards.schedules(params), queryFn: () => engram.cards.schedules(params) }),
      info: (cardId: string) =>
        queryOptions({ queryKey: engramKeys.cards.info(cardId), queryFn: () => engram.cardInfo.get(cardId) }),
    },
    study: {
      queue: (params: QueueParams = {}) =>
        queryOptions({ queryKey: engramKeys.study.queue(params), queryFn: () => engram.study.queue(params) }),
      /** The cards a custom session would take and how many match (the dialog's count). */
      custom: (params: CustomStudyParams) =>
        queryOptions({ queryKey: engramKeys.study.custom(params), queryFn: () => engram.study.custom(params) }),
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
    media: {
      /** A signed link to a media file named relative to its deck; a file that cannot be linked is not asked for again. */
      url: (deckId: string, name: string) =>
        queryOptions({
          queryKey: engramKeys.media.url(deckId, name),
          queryFn: () => engram.storage.mediaUrl(`${deckId}/${name}`),
          staleTime: linkStaleTime(mediaUrlLifetime),
          gcTime: mediaUrlLifetime,
          retry: false,
        }),
    },
  };
}
