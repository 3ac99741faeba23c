/**
 * Query keys: one factory per resource, each key a tuple starting with the
 * resource name, so invalidating a prefix (`engramKeys.notes.all`) reaches
 * every query of that resource, and `engramKeys.notes.deck(id)` every query of
 * one deck's notes.
 */
import type { Engram } from "../client.js";
import type { ReviewStatsDays } from "../stats.js";

export type NoteListParams = NonNullable<Parameters<Engram["notes"]["list"]>[1]>;
/** A list's filters and order without paging: the infinite list pages through them. */
export type NotePagesParams = Omit<NoteListParams, "limit" | "offset">;
export type NoteFilterParams = NonNullable<Parameters<Engram["notes"]["ids"]>[1]>;
/** A browser view (mode, filters, order) without paging: the infinite list pages through it. */
export type BrowsePagesParams = Omit<NonNullable<Parameters<Engram["browse"]["page"]>[1]>, "limit" | "offset">;
export type ExploreParams = NonNullable<Parameters<Engram["decks"]["explore"]>[0]>;
/** A search and order of public decks without paging: the infinite list pages through them. */
export type ExplorePagesParams = Omit<ExploreParams, "limit" | "offset">;
export type ScheduleParams = NonNullable<Parameters<Engram["cards"]["schedules"]>[0]>;
export type QueueParams = { deckId?: string };
/** A custom session's choice: the cards it gives (and how many match) change with every answer. */
export type CustomStudyParams = Parameters<Engram["study"]["custom"]>[0];
/** The notes a find and replace works on. */
export type FindReplaceParams = { noteIds: string[] };
/** A deck's history page without its cursor: the infinite list pages through it. */
export type DeckHistoryParams = { since?: string; until?: string };
export type UserStatsParams = { deckId?: string };
export type ReviewStatsParams = { deckId?: string; days?: ReviewStatsDays };

export const engramKeys = {
  auth: {
    all: ["auth"] as const,
    user: () => [...engramKeys.auth.all, "user"] as const,
    factors: () => [...engramKeys.auth.all, "factors"] as const,
    /** Every user's assurance level: the prefix a change of level invalidates. */
    assurance: () => [...engramKeys.auth.all, "assurance"] as const,
    /** Per user, not per token, so a silently renewed session keeps its cached level. */
    userAssurance: (userId: string | null) => [...engramKeys.auth.assurance(), userId] as const,
  },
  profile: {
    all: ["profile"] as const,
    detail: () => [...engramKeys.profile.all, "detail"] as const,
    /** Under the profile, so whatever changes a picture refreshes its link too. */
    avatarUrl: (path: string | null) => [...engramKeys.profile.all, "avatar-url", path] as const,
  },
  decks: {
    all: ["decks"] as const,
    list: () => [...engramKeys.decks.all, "list"] as const,
    detail: (deckId: string) => [...engramKeys.decks.all, "detail", deckId] as const,
    explore: (params: ExploreParams) => [...engramKeys.decks.all, "explore", params] as const,
    explorePages: (params: ExplorePagesParams) => [...engramKeys.decks.explore(params), "pages"] as const,
    /** Under the decks, so deleting the sample deck forgets it. */
    sample: () => [...engramKeys.decks.all, "sample"] as const,
  },
  presets: {
    all: ["presets"] as const,
    list: () => [...engramKeys.presets.all, "list"] as const,
  },
  members: {
    all: ["members"] as const,
    list: (deckId: string) => [...engramKeys.members.all, "list", deckId] as const,
  },
  invites: {
    all: ["invites"] as const,
    list: (deckId: string) => [...engramKeys.invites.all, "list", deckId] as const,
    preview: (token: string) => [...engramKeys.invites.all, "preview", token] as const,
  },
  notes: {
    all: ["notes"] as const,
    deck: (deckId: string) => [...engramKeys.notes.all, "deck", deckId] as const,
    list: (deckId: string, params: NoteListParams) => [...engramKeys.notes.deck(deckId), params] as const,
    pages: (deckId: string, params: NotePagesParams) => [...engramKeys.notes.deck(deckId), "pages", params] as const,
    ids: (deckId: string, params: NoteFilterParams) => [...engramKeys.notes.deck(deckId), "ids", params] as const,
    /** The browser's sorted pages of notes or cards, under the deck's notes so every change to them refreshes it. */
    browse: (deckId: string, params: BrowsePagesParams) =>
      [...engramKeys.notes.deck(deckId), "browse", params] as const,
    detail: (noteId: string) => [...engramKeys.notes.all, "detail", noteId] as const,
    /** Under the deck's notes, so any change to them loads them again. */
    findReplace: (deckId: string, params: FindReplaceParams) =>
      [...engramKeys.notes.deck(deckId), "find-replace", params] as const,
  },
  personalNotes: {
    all: ["personal-notes"] as const,
    deck: (deckId: string) => [...engramKeys.personalNotes.all, "deck", deckId] as const,
    detail: (noteId: string) => [...engramKeys.personalNotes.all, "detail", noteId] as const,
  },
  /**
   * Under the notes' keys, so whatever refreshes a note (or a deck's notes)
   * refreshes its history (and the deck's changes) too.
   */
  noteHistory: {
    note: (noteId: string) => [...engramKeys.notes.detail(noteId), "history"] as const,
    deck: (deckId: string) => [...engramKeys.notes.deck(deckId), "history"] as const,
    period: (deckId: string, params: DeckHistoryParams) => [...engramKeys.noteHistory.deck(deckId), params] as const,
    changes: (deckId: string, since: string | null) =>
      [...engramKeys.notes.deck(deckId), "changes-since", since] as const,
  },
  /** Under the deck's notes, so a delete, a restore and every change announced for them refresh it. */
  deletedNotes: {
    deck: (deckId: string) => [...engramKeys.notes.deck(deckId), "deleted"] as const,
  },
  noteTypes: {
    all: ["note-types"] as const,
    deck: (deckId: string) => [...engramKeys.noteTypes.all, "deck", deckId] as const,
    /** Under the deck's key: a change to its own types refreshes this too. Ancestors' changes come by `all`. */
    usable: (deckId: string) => [...engramKeys.noteTypes.deck(deckId), "inherited"] as const,
    detail: (noteTypeId: string) => [...engramKeys.noteTypes.all, "detail", noteTypeId] as const,
  },
  cards: {
    all: ["cards"] as const,
    forNote: (noteId: string) => [...engramKeys.cards.all, "note", noteId] as const,
    schedules: (params: ScheduleParams) => [...engramKeys.cards.all, "schedules", params] as const,
    /** Under the cards, so an answer (which refreshes every card) refreshes it too. */
    info: (cardId: string) => [...engramKeys.cards.all, "info", cardId] as const,
  },
  study: {
    all: ["study"] as const,
    queue: (params: QueueParams) => [...engramKeys.study.all, "queue", params] as const,
    custom: (params: CustomStudyParams) => [...engramKeys.study.all, "custom", params] as const,
  },
  stats: {
    all: ["stats"] as const,
    user: (params: UserStatsParams) => [...engramKeys.stats.all, "user", params] as const,
    decks: () => [...engramKeys.stats.all, "decks"] as const,
    reviews: (params: ReviewStatsParams) => [...engramKeys.stats.all, "reviews", params] as const,
    workload: () => [...engramKeys.stats.all, "workload"] as const,
  },
  imports: {
    all: ["imports"] as const,
    list: () => [...engramKeys.imports.all, "list"] as const,
    detail: (jobId: string) => [...engramKeys.imports.all, "detail", jobId] as const,
  },
  exports: {
    all: ["exports"] as const,
    list: () => [...engramKeys.exports.all, "list"] as const,
  },
  suggestions: {
    all: ["suggestions"] as const,
    /** A deck's review queue and its count. */
    deck: (deckId: string) => [...engramKeys.suggestions.all, "deck", deckId] as const,
    pending: (deckId: string) => [...engramKeys.suggestions.deck(deckId), "pending"] as const,
    pendingCount: (deckId: string) => [...engramKeys.suggestions.deck(deckId), "count"] as const,
    mine: () => [...engramKeys.suggestions.all, "mine"] as const,
  },
  media: {
    all: ["media"] as const,
    /** A signed link to one of a deck's media files, by its name in the deck. */
    url: (deckId: string, name: string) => [...engramKeys.media.all, "url", deckId, name] as const,
  },
} as const;
