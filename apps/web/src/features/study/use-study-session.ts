/**
 * Opens a review session for the screen: today's cards (from the server, or
 * the device's copy when offline) or a custom session's cards, answers kept
 * in IndexedDB until the server has them, and what happened to them (saved,
 * dropped as answered elsewhere, refused) turned into what the screen shows.
 * Cards suspended or buried on another device leave the open session.
 */
import type { Rating } from "@engram/core";
import {
  type CustomStudyOptions,
  type Engram,
  indexedDbReviewStore,
  memoryReviewStore,
  type ReviewSession,
  type ReviewSessionEvent,
  type ReviewSessionState,
  type StudyCard,
} from "@engram/sdk";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { useEngram } from "../../session/engram-context.js";
import { useSession } from "../../session/session-context.js";
import { loadStudyInput, recordStored } from "./offline-queue.js";

export type Opened = {
  session: ReviewSession;
  /** The cards the session started with, by id (to name a card in a message later). */
  cards: ReadonlyMap<string, StudyCard>;
  /** Which opening this is; a new one (Try again) starts a new screen. */
  attempt: number;
  /** The session was started from the device's copy of the queue (no connection). */
  fromDevice: boolean;
  /** How many cards a custom session's choice matched (it takes at most 1,000). */
  matched: number;
};

/**
 * Where a session's cards come from: today's queue, or a custom choice
 * (docs/product.md, "Custom study") answered as usual or only previewed.
 */
export type CardSource = { kind: "today" } | { kind: "custom"; options: CustomStudyOptions; preview: boolean };

const today: CardSource = { kind: "today" };

/** The cards to study and the scheduler, by source; a custom session needs the server. */
async function loadCards(engram: Engram, userId: string, deckId: string | undefined, source: CardSource) {
  if (source.kind === "today") {
    const input = await loadStudyInput(engram, userId, deckId);
    return { ...input, matched: input.cards.length };
  }
  const [found, scheduler] = await Promise.all([engram.study.custom(source.options), engram.study.scheduler()]);
  return { cards: found.cards, scheduler, fromDevice: false, matched: found.matched };
}

type Opening = { status: "loading" } | { status: "error"; error: unknown } | ({ status: "ready" } & Opened);

export function useOpenSession(
  deckId: string | undefined,
  source: CardSource = today,
): Opening & { retry: () => void } {
  const engram = useEngram();
  const signedIn = useSession();
  const userId = signedIn.status === "signed-in" ? signedIn.session.user.id : null;
  const [opening, setOpening] = useState<Opening>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!userId) return;
    let active = true;
    let opened: ReviewSession | undefined;
    let stopFollowing: (() => Promise<void>) | undefined;
    setOpening({ status: "loading" });
    (async () => {
      const input = await loadCards(engram, userId, deckId, source);
      const preview = source.kind === "custom" && source.preview;
      const session = await engram.study.session({
        cards: input.cards,
        scheduler: input.scheduler,
        // A preview records nothing; answers of earlier sessions still waiting are sent by the next real one.
        store: preview ? memoryReviewStore() : indexedDbReviewStore(),
        preview,
        custom: source.kind === "custom",
      });
      opened = session;
      if (!active) {
        await session.close();
        return;
      }
      // Acknowledged answers go into the device's copy of the queue (see offline-queue.ts).
      session.subscribe((event) => {
        if (event.type === "saved") void recordStored(userId, deckId, event.result, true);
        if (event.type === "undone" && event.result) void recordStored(userId, deckId, event.result, false);
        if (event.type === "dropped") void recordStored(userId, deckId, event.current, true);
      });
      // Offline it joins once the connection is back, and then checks every card.
      stopFollowing = engram.study.followSchedules(session);
      const cards = new Map(input.cards.map((card) => [card.card_id, card]));
      setOpening({ status: "ready", session, cards, fromDevice: input.fromDevice, matched: input.matched, attempt });
    })().catch((error: unknown) => {
      if (active) setOpening({ status: "error", error });
    });
    return () => {
      active = false;
      // Answers not sent yet stay in IndexedDB; the next session sends them.
      void stopFollowing?.();
      void opened?.close();
    };
  }, [engram, userId, deckId, source, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...opening, retry };
}

export function useSessionState(session: ReviewSession): ReviewSessionState {
  const subscribe = useCallback((onChange: () => void) => session.subscribe(() => onChange()), [session]);
  return useSyncExternalStore(subscribe, session.getState);
}

/** A card whose answer here was not counted because another device answered it first. */
export type AnsweredElsewhere = { id: string; card: StudyCard | undefined };

/** A card an answer here made a leech (the server says so when it stores the answer, online or later). */
export type NewLeech = { id: string; card: StudyCard | undefined; lapses: number; suspended: boolean };

/**
 * Outbox events the screen explains: answers dropped as answered on another
 * device, and the latest answer that made a card a leech.
 */
export function useSessionEvents(session: ReviewSession, cards: ReadonlyMap<string, StudyCard>) {
  const [answeredElsewhere, setAnsweredElsewhere] = useState<AnsweredElsewhere[]>([]);
  const [leech, setLeech] = useState<NewLeech | null>(null);
  useEffect(
    () =>
      session.subscribe((event: ReviewSessionEvent) => {
        if (event.type === "saved" && event.result.leech) {
          const { lapses, suspended } = event.result.leech;
          setLeech({ id: event.entry.id, card: cards.get(event.entry.card_id), lapses, suspended });
        }
        if (event.type !== "dropped") return;
        const { entry } = event;
        setAnsweredElsewhere((shown) => [...shown, { id: entry.id, card: cards.get(entry.card_id) }]);
      }),
    [session, cards],
  );
  const dismiss = useCallback((id: string) => setAnsweredElsewhere((shown) => shown.filter((n) => n.id !== id)), []);
  const clearLeech = useCallback(() => setLeech(null), []);
  return { answeredElsewhere, dismiss, leech, clearLeech };
}

/** The answer buttons pressed this session, for the summary; undo takes the last one back. */
export function useTally() {
  const [ratings, setRatings] = useState<Rating[]>([]);
  const [startedAt] = useState(() => Date.now());
  const add = useCallback((rating: Rating) => setRatings((list) => [...list, rating]), []);
  const undo = useCallback(() => setRatings((list) => list.slice(0, -1)), []);
  return { ratings, startedAt, add, undo };
}
