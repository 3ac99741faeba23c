/**
 * @engram/sdk: every backend call Engram makes, typed, validated and with one
 * error type. Start with `createEngram(supabase)`.
 */
export type { Session, SessionEvent, SessionListener, SignUpInput, SignUpResult, User } from "./auth.js";
export {
  type BrowseMode,
  type BrowseOptions,
  type BrowsePage,
  type BrowseRow,
  type BrowseSort,
  browseCountCap,
  browseModes,
  browseSorts,
  maxBrowsePage,
} from "./browse.js";
export { type CardInfo, type CardReview, defaultFsrsDecay, retrievabilityAfter } from "./card-info.js";
export type { BuriedCard, Card, CardFlag, CardWithSchedule, ScheduleRow } from "./cards.js";
export { cardFlags } from "./cards.js";
export { createEngram, type Engram, type EngramClient } from "./client.js";
export type { Database, Json, Tables, TablesInsert, TablesUpdate } from "./database.types.js";
export type { DeckPreset, PresetInput, PresetOptions, PresetPatch } from "./deck-presets.js";
export type {
  Deck,
  DeckInput,
  DeckPatch,
  DeckRole,
  ExploreSort,
  LeechAction,
  MyDeck,
  NewDeckInput,
  PublicDeck,
} from "./decks.js";
export { type DeletedNote, deletedNoteDays } from "./deleted-notes.js";
export { createEngramClient, type EngramClientOptions } from "./engram-client.js";
export {
  EngramError,
  type EngramErrorCode,
  type EngramErrorOptions,
  engramErrorCodes,
  fromAuthError,
  fromFunctionsError,
  fromPostgrestError,
  fromStorageError,
  type PostgrestErrorBody,
  toEngramError,
} from "./errors.js";
export {
  type FindReplaceOptions,
  type FindReplacePreview,
  type NoteReplacement,
  previewReplace,
  type ReplaceableNote,
  replaceableFieldNames,
} from "./find-replace.js";
export type { Invite, InviteInput, InvitePreview, InviteStatus } from "./invites.js";
export type { DeckMember, MemberRole } from "./members.js";
export type { Assurance, AssuranceLevel, EngramMfa, TotpEnrollment, TotpFactor } from "./mfa.js";
export type {
  DeckChanges,
  DeckHistoryOptions,
  DeckHistoryPage,
  NoteHistoryAction,
  NoteHistoryEntry,
  RevertedNote,
} from "./note-history.js";
export type {
  DeckNoteType,
  NoteTypeFrom,
  NoteTypeInput,
  NoteTypeUpdateOptions,
  StockNoteType,
} from "./note-types.js";
export {
  type ListedNote,
  maxBulkNotes,
  type Note,
  type NoteFilter,
  type NoteInput,
  type NoteOrder,
  type NotePage,
  type NoteSort,
  type NoteSortColumn,
  type NoteVersion,
  type NoteWithCards,
  noteSortColumns,
  noteSorts,
  type SortDirection,
} from "./notes.js";
export type { PersonalNote, PersonalNoteInput } from "./personal-notes.js";
export { markedTag } from "./personal-notes.js";
export type { Profile, ProfilePatch } from "./profile.js";
export { displayNameChosen } from "./profile.js";
export type {
  ChangeTable,
  ChangeType,
  DeckActivity,
  DeckContentEvent,
  DeckPresence,
  DeckRoom,
  EditingSignal,
  ImportProgressEvent,
  ImportProgressOptions,
  JoinDeckOptions,
  OwnMembershipEvent,
  OwnPersonalNotesEvent,
  OwnScheduleEvent,
  ResyncEvent,
  SubscriptionOptions,
  TableChange,
  Unsubscribe,
} from "./realtime.js";
export type { FieldIssue } from "./request.js";
export type { SampleDeck } from "./sample-deck.js";
export type {
  DeckStats,
  RetentionPeriod,
  ReviewStats,
  ReviewStatsDays,
  ReviewStatsOptions,
  UserStats,
} from "./stats.js";
export {
  avatarTypes,
  type ExportFile,
  type FileInput,
  type ImportJob,
  type MediaUploadOptions,
  mediaTypes,
  type SignedUrlOptions,
  type SvgRasterizer,
  transferTypes,
  type UploadOptions,
} from "./storage.js";
export {
  type AnsweredCard,
  type AnswerInput,
  type CurrentCard,
  type CustomStudyCards,
  type CustomStudyMode,
  type CustomStudyOptions,
  customStudyLimit,
  indexedDbReviewStore,
  type LeechMark,
  type LeftElsewhere,
  type LeftElsewhereReason,
  memoryReviewStore,
  type OutboxEvent,
  type PendingAnswer,
  type PendingEntry,
  type PendingUndo,
  type QueueOptions,
  type RecordedReview,
  type RetryOptions,
  type ReviewAnswer,
  type ReviewSession,
  type ReviewSessionEvent,
  type ReviewSessionOptions,
  type ReviewSessionState,
  type ReviewStore,
  type ScheduledCard,
  type SessionCounts,
  type StoredSchedule,
  type StudyCard,
  type StudyNote,
  type StudyQueue,
} from "./study/index.js";
export {
  type MySuggestion,
  maxRationaleLength,
  maxReviewedSuggestions,
  type PendingSuggestion,
  type ReviewInput,
  type SuggestedFields,
  type Suggestion,
  type SuggestionAction,
  type SuggestionClosedBecause,
  type SuggestionEvent,
  type SuggestionInput,
  type SuggestionStatus,
  type SuggestionsFrom,
} from "./suggestions.js";
export {
  type Recommendation,
  recommendRetention,
  type SimulatedDay,
  type Simulation,
  type SimulationInput,
  simulateWorkload,
  type Workload,
} from "./workload.js";
