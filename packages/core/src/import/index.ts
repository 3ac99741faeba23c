/** Reading other apps' files on the device, kept out of the main entry so it stays small. */
export { AnkiImportError, type AnkiImportErrorCode } from "./anki/errors";
export { readAnkiPackage } from "./anki/read-package";
export type {
  AnkiCard,
  AnkiDeck,
  AnkiFormat,
  AnkiMedia,
  AnkiNote,
  AnkiNoteTypeSummary,
  AnkiPackage,
  AnkiReadOptions,
  AnkiReview,
  AnkiSchedule,
  AnkiSkipped,
} from "./anki/types";
