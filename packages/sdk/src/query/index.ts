export { engramChanges, engramInvalidations, invalidateKeys } from "./invalidations.js";
export {
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
export { engramMutations } from "./mutations.js";
export { engramQueries } from "./queries.js";
export { type WireRealtimeOptions, wireRealtime } from "./realtime.js";
