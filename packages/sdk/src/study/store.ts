/**
 * Where answers wait until the server has them: written before sending,
 * deleted only after the server acknowledged, so a reload or a lost
 * connection loses none. Entries are plain JSON.
 */
import { createStore, del, set, type UseStore, values } from "idb-keyval";
import type { ReviewAnswer } from "./answers.js";

type EntryBase = {
  /** The store key: the answer's client_review_id, or `undo:<client_review_id>`. */
  id: string;
  /** Whose answer it is; a session sends only its own user's entries. */
  user_id: string;
  /** Sending order. */
  seq: number;
  /** Set when the server refused it for good; kept so it is never silently lost. */
  failure?: { code: string; message: string };
};

export type PendingAnswer = EntryBase & { kind: "answer" } & ReviewAnswer;
export type PendingUndo = EntryBase & { kind: "undo"; client_review_id: string };
export type PendingEntry = PendingAnswer | PendingUndo;

export interface ReviewStore {
  list(): Promise<PendingEntry[]>;
  /** Adds or replaces the entry with the same `id`. */
  put(entry: PendingEntry): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Keeps entries in memory: survives a lost connection, not a reload (the default in Node). */
export function memoryReviewStore(): ReviewStore {
  const entries = new Map<string, PendingEntry>();
  return {
    async list() {
      return [...entries.values()].map((entry) => structuredClone(entry));
    },
    async put(entry) {
      entries.set(entry.id, structuredClone(entry));
    },
    async delete(id) {
      entries.delete(id);
    },
  };
}

/** Keeps entries in the browser's IndexedDB (through idb-keyval), so they survive a reload. */
export function indexedDbReviewStore(name = "engram-reviews"): ReviewStore {
  // Opened on first use, so creating the store where IndexedDB is missing fails only when used.
  let database: UseStore | undefined;
  const store = () => {
    database ??= createStore(name, "pending");
    return database;
  };
  return {
    list: () => values<PendingEntry>(store()),
    put: (entry) => set(entry.id, entry, store()),
    delete: (id) => del(id, store()),
  };
}
