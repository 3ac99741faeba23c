export { clozeOrdinals, maxClozeOrdinal, parseCloze } from "./cloze";
export type { ClozeDeletion } from "./cloze";
export { defaults, limits } from "./limits";
export { cardOrdinals, isNoteKind, noteKinds, reversedOrdinals } from "./notes";
export type { BasicFields, ClozeFields, Note, NoteFields, NoteKind } from "./notes";
export { renderCard } from "./render";
export type { CardFaces } from "./render";
export { sanitizeCardHtml, stripMarkup } from "./sanitize";
export type { SanitizeOptions } from "./sanitize";
export {
  Rating,
  cardStates,
  createScheduler,
  formatInterval,
  newCardSchedule,
  nextSchedule,
  previewIntervals,
  ratings,
  schedulerSettings,
} from "./scheduler";
export type {
  CardSchedule,
  CardState,
  IntervalPreview,
  ReviewLogEntry,
  Scheduler,
  SchedulerOptions,
} from "./scheduler";
export { isValidTimezone, studyDay } from "./study-day";
export type { StudyDay } from "./study-day";
export { validationCases } from "./validation-cases";
export type { CaseList, InvalidCase } from "./validation-cases";
export {
  basicFieldsSchema,
  charLength,
  clozeFieldsSchema,
  dailyLimitSchema,
  deckDescriptionSchema,
  deckInputSchema,
  deckNameSchema,
  durationMsSchema,
  emailSchema,
  inviteInputSchema,
  noteInputSchema,
  passwordSchema,
  profileSettingsSchema,
  ratingSchema,
  reviewInputSchema,
  reviewedAtSchema,
  tagSchema,
  tagsSchema,
  timezoneSchema,
} from "./validation";
export type { DeckInput, InviteInput, Now, NoteInput, ProfileSettings, ReviewInput } from "./validation";
