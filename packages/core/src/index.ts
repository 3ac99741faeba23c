export { sanitizeCardCss } from "./card-css";
export type { ClozeDeletion } from "./cloze";
export { clozeNesting, clozeOrdinals, maxClozeOrdinal, parseCloze } from "./cloze";
export type { FindReplaceOptions, FindReplaceProblem, FindReplaceResult } from "./find-replace";
export { FindReplaceError, findPattern, findReplace } from "./find-replace";
export type {
  ImageOcclusionFields,
  ImageOcclusionIssue,
  MaskState,
  OcclusionMask,
  OcclusionPoint,
  OcclusionShape,
  OcclusionShapeKind,
} from "./image-occlusion";
export {
  occlusionColours,
  occlusionMasks,
  occlusionNumber,
  occlusionOrdinals,
  occlusionShapeKinds,
  occlusionTag,
  parseOcclusions,
  safeMaskColour,
  serializeOcclusion,
  serializeOcclusions,
  validateImageOcclusion,
} from "./image-occlusion";
export { imageOcclusionFieldsSchema } from "./image-occlusion-schema";
export { avatarTypes, defaults, limits, mediaTypeByExtension, mediaTypeOf, mediaTypes, transferTypes } from "./limits";
export type { MathKind, MathSpan } from "./math";
export { findMath, hasMath, replaceMath } from "./math";
export type { MergeableNote, NoteMerge } from "./note-merge";
export { mergeNote, mergeTags } from "./note-merge";
export type { NoteTypeIssue } from "./note-types";
export {
  builtInNoteTypes,
  customFieldsSchema,
  fieldNameSchema,
  noteTypeLimits,
  noteTypeSchema,
  validateNoteType,
} from "./note-types";
export type { NoteInput } from "./note-validation";
export { basicFieldsSchema, clozeFieldsSchema, noteInputSchema, tagSchema, tagsSchema } from "./note-validation";
export type {
  BasicFields,
  CardTemplate,
  ClozeFields,
  CustomFields,
  Note,
  NoteFields,
  NoteKind,
  NoteType,
} from "./notes";
export { cardOrdinals, isNoteKind, noteKinds, reversedOrdinals } from "./notes";
export type { CardContext, CardFaces, RenderOptions } from "./render";
export { renderCard } from "./render";
export type { SampleNote } from "./sample-deck";
export { sampleDeckNotes } from "./sample-deck";
export { sampleDeckKey, sampleDeckName } from "./sample-deck-name";
export type { SanitizeOptions } from "./sanitize";
export { hasContent, sanitizeCardHtml, stripMarkup } from "./sanitize";
export type {
  CardSchedule,
  CardState,
  IntervalPreview,
  ReviewLogEntry,
  Scheduler,
  SchedulerOptions,
} from "./scheduler";
export {
  cardStates,
  createScheduler,
  formatInterval,
  newCardSchedule,
  nextSchedule,
  previewIntervals,
  Rating,
  ratings,
  schedulerSettings,
} from "./scheduler";
export { parseSearch } from "./search/parse-search";
export type { Comparison, SearchErrorKind, SearchNode, SearchProperty, SearchState } from "./search/search-node";
export { comparisons, SearchSyntaxError, searchProperties, searchStates } from "./search/search-node";
export type { StudyDay } from "./study-day";
export { isValidTimezone, studyDay } from "./study-day";
export { sanitizeSvg } from "./svg";
export type {
  FieldRenames,
  ParsedTemplate,
  SpecialFieldValues,
  TemplateContext,
  TemplateError,
  TemplateNode,
} from "./templates";
export {
  fieldIsEmpty,
  parseTemplate,
  renameFieldInTemplates,
  renameFieldsInTemplate,
  renderTemplate,
  specialFields,
  templateOrdinals,
} from "./templates";
export { typeAnswerExpected, typeAnswerMarker, typeAnswerTag } from "./type-answer";
export { type CompareOptions, compareTypedAnswer } from "./type-answer-compare";
export type { DeckInput, InviteInput, Now, ProfileSettings, ReviewInput } from "./validation";
export {
  charLength,
  dailyLimitSchema,
  deckDescriptionSchema,
  deckInputSchema,
  deckNameSchema,
  durationMsSchema,
  emailSchema,
  inviteInputSchema,
  passwordSchema,
  profileSettingsSchema,
  ratingSchema,
  reviewedAtSchema,
  reviewInputSchema,
  timezoneSchema,
} from "./validation";
export type { CaseList, InvalidCase } from "./validation-cases";
export { validationCases } from "./validation-cases";
