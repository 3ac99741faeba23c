export type { Session, SessionEvent, SessionListener, SignUpInput, SignUpResult, User } from "./auth.js";
export { createEngram, type Engram, type EngramClient } from "./client.js";
export type { Database, Json, Tables, TablesInsert, TablesUpdate } from "./database.types.js";
export type { Deck, DeckInput, DeckPatch, DeckRole, MyDeck } from "./decks.js";
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
export type { Profile, ProfilePatch } from "./profile.js";
export type { FieldIssue } from "./request.js";
