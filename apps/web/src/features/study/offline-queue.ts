/**
 * The day's queue and the scheduler's settings, kept on the device so a
 * session can start without a connection (after a reload while offline).
 * Online, the queue is read from the server and the copy replaced; each answer
 * the server acknowledged is written into the copy, so an offline reload does
 * not serve a card again that was already answered before the connection went.
 * Answers not acknowledged yet live in the review store; the session merges them.
 */
import { createScheduler, type Scheduler } from "@engram/core";
import { type Engram, EngramError, type LeechMark, type ScheduledCard, type StudyCard } from "@engram/sdk";
import { createStore, delMany, entries, get, keys, set, type UseStore } from "idb-keyval";

/** What the server stored for a card since the queue was read; `answered` false once the answer was undone. */
type Stored = { card: StoredCard; answered: boolean };
/** A card's schedule, and whether the answer stored made it a leech (and suspended it). */
type StoredCard = ScheduledCard & { leech?: LeechMark | null };

type SavedQueue = {
  savedAt: Date;
  /** The cards as the server sent them. */
  cards: StudyCard[];
  desiredRetention: number;
  params: readonly number[] | null;
};

export type StudyInput = {
  cards: StudyCard[];
  scheduler: Scheduler;
  /** When the cards were read from the server: now, or earlier when studying from the device's copy. */
  savedAt: Date;
  fromDevice: boolean;
};

// idb-keyval keeps one object store per database, hence two databases. The
// acknowledgements are one small entry per card, written as each arrives,
// so the (large) queue is written once per day, never once per answer.
let queues: UseStore | undefined;
let acknowledged: UseStore | undefined;
const queueStore = () => {
  queues ??= createStore("engram-study", "queues");
  return queues;
};
const storedStore = () => {
  acknowledged ??= createStore("engram-study-answers", "stored");
  return acknowledged;
};

const queueKey = (userId: string, deckId: string | undefined) => `${userId}:${deckId ?? "all"}`;
const storedPrefix = (key: string) => `${key}|`;

function isOffline(error: unknown): boolean {
  return error instanceof EngramError && error.code === "network";
}

async function readSaved(key: string): Promise<SavedQueue | undefined> {
  try {
    return await get<SavedQueue>(key, queueStore());
  } catch {
    // No IndexedDB (private mode in some browsers): study online only.
    return undefined;
  }
}

async function fromServer(engram: Engram, deckId: string | undefined, key: string): Promise<StudyInput> {
  const [cards, scheduler] = await Promise.all([engram.study.queue({ deckId }), engram.study.scheduler()]);
  const saved: SavedQueue = {
    savedAt: new Date(),
    cards,
    desiredRetention: scheduler.desiredRetention,
    params: scheduler.params,
  };
  // The server's queue already reflects every acknowledged answer.
  await Promise.all([set(key, saved, queueStore()), forgetStored(key)]).catch(() => {
    // Keeping the copy is a convenience; studying goes on without it.
  });
  return { cards, scheduler, savedAt: saved.savedAt, fromDevice: false };
}

/**
 * An answered card counts as answered ("learning" queue): the session shows it
 * again only while it is still in learning, as the server's queue would.
 */
async function forgetStored(key: string): Promise<void> {
  const prefix = storedPrefix(key);
  const old = (await keys<string>(storedStore())).filter((name) => name.startsWith(prefix));
  if (old.length > 0) await delMany(old, storedStore());
}

async function readStored(key: string): Promise<Map<string, Stored>> {
  const prefix = storedPrefix(key);
  const found = new Map<string, Stored>();
  for (const [name, value] of await entries<string, Stored>(storedStore()).catch(() => [])) {
    if (name.startsWith(prefix)) found.set(value.card.card_id, value);
  }
  return found;
}

async function fromSaved(key: string, saved: SavedQueue): Promise<StudyInput> {
  const scheduler = createScheduler({ desiredRetention: saved.desiredRetention, params: saved.params });
  const acknowledged = await readStored(key);
  const cards = saved.cards.flatMap((card): StudyCard[] => {
    const stored = acknowledged.get(card.card_id);
    if (!stored) return [card];
    // A leech the answer suspended has left today's queue, as on the server.
    if (stored.answered && stored.card.leech?.suspended) return [];
    const { schedule, version } = stored.card;
    return [{ ...card, schedule, version, queue: stored.answered ? "learning" : card.queue }];
  });
  return { cards, scheduler, savedAt: saved.savedAt, fromDevice: true };
}

/** Today's cards and scheduler: from the server when it answers, else from the device's copy. */
export async function loadStudyInput(engram: Engram, userId: string, deckId: string | undefined): Promise<StudyInput> {
  const key = queueKey(userId, deckId);
  if (typeof navigator !== "undefined" && navigator.onLine === false) {
    const saved = await readSaved(key);
    if (saved) return fromSaved(key, saved);
  }
  try {
    return await fromServer(engram, deckId, key);
  } catch (error) {
    const saved = isOffline(error) ? await readSaved(key) : undefined;
    if (saved) return fromSaved(key, saved);
    throw error;
  }
}

/** Writes what the server stored for a card (after an answer, or an undo) into the device's copy. */
export async function recordStored(
  userId: string,
  deckId: string | undefined,
  card: StoredCard,
  answered: boolean,
): Promise<void> {
  const stored: Stored = { card, answered };
  await set(`${storedPrefix(queueKey(userId, deckId))}${card.card_id}`, stored, storedStore()).catch(() => {});
}
