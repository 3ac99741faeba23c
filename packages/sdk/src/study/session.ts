/**
 * A review session: serves the next card at once with its four interval
 * previews, records answers in the background through the Outbox, brings
 * learning cards back when they are due (as Anki does) and undoes up to ten
 * answers. UIs subscribe to it (e.g. with React's useSyncExternalStore).
 *
 * Answers are written to the ReviewStore before they are sent and deleted
 * only once the server acknowledged them; a session opened later on the same
 * store sends what is left (client_review_id makes a repeat harmless). When
 * another device answered a card first, the answer is recomputed on the
 * server's schedule and sent again if the card was still due when it was
 * answered here (due within the 20-minute look-ahead, and not answered there
 * later); otherwise it is dropped and a `dropped` event says so.
 */
import {
  cardOrdinals,
  defaults,
  type IntervalPreview,
  limits,
  previewIntervals,
  type Rating,
  type Scheduler,
} from "@engram/core";
import { EngramError } from "../errors.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import { computeAnswer, learnAheadMs } from "./answers.js";
import {
  isLearning,
  type ScheduledCard,
  type StudyCard,
  type StudyNote,
  type StudyQueue,
  scheduleFromRow,
} from "./cards.js";
import { defaultRetry, Outbox, type OutboxEvent, type RetryOptions } from "./outbox.js";
import { fetchQueue, loadScheduler } from "./queue.js";
import { memoryReviewStore, type PendingAnswer, type PendingEntry, type ReviewStore } from "./store.js";

export type ReviewSessionOptions = {
  /** Study one deck; all decks by default. */
  deckId?: string;
  /** Study these cards instead of fetching today's queue (e.g. cards the app kept for offline use). */
  cards?: StudyCard[];
  /** The scheduler to use instead of reading the user's settings from their profile. */
  scheduler?: Scheduler;
  /** Where answers wait until the server has them; `indexedDbReviewStore()` in browsers. In memory by default. */
  store?: ReviewStore;
  /** The clock. */
  now?: () => Date;
  retry?: Partial<RetryOptions>;
  /**
   * Flip through the cards without changing the schedule: no answer is
   * recorded; Again shows the card again after the others, any other answer
   * takes it out of the session.
   */
  preview?: boolean;
  /**
   * The cards are a custom session's (`study.custom`): each is served in the
   * order given whatever its due, a learning card due tomorrow included;
   * answers then schedule as usual. A preview serves them so too.
   */
  custom?: boolean;
};

/** The card on screen and what each answer button would do. */
export type CurrentCard = {
  card: StudyCard;
  intervals: Record<Rating, IntervalPreview>;
  shownAt: Date;
};

export type SessionCounts = Record<StudyQueue, number>;

export type ReviewSessionState = {
  current: CurrentCard | null;
  /** Cards left in each queue, the current one included. */
  counts: SessionCounts;
  /** Answers and undos the server has not acknowledged yet. */
  pending: number;
  /** The last attempt to send could not reach the server; it is retried. */
  offline: boolean;
  /** Why pending answers wait, when the last attempt failed (`network`, or `permission-denied` once signed out). */
  waitingError: EngramError | null;
  /** Answers the server refused for good (kept in the store until dismissed). */
  failures: readonly PendingEntry[];
  canUndo: boolean;
  /** No card now, but learning cards come back at this time. */
  nextAt: Date | null;
  done: boolean;
};

/** Why a card left the session because of a change made on another device (or tab). */
export type LeftElsewhereReason = "suspended" | "buried";

/** A card the session took out because it was suspended or buried elsewhere. */
export type LeftElsewhere = { card: StudyCard; reason: LeftElsewhereReason };

export type ReviewSessionEvent =
  | { type: "change"; state: ReviewSessionState }
  /** Cards suspended or buried on another device left the session (see `study.followSchedules`). */
  | { type: "left-elsewhere"; cards: LeftElsewhere[] }
  | OutboxEvent;

/** The user's schedule of a card as read back from the server: whether it may still be studied today. */
export type HeldSchedule = { card_id: string; suspended: boolean; buried_until: string | null };

export type AnsweredCard = { clientReviewId: string; card: StudyCard };

type UndoStep = {
  before: StudyCard;
  answerId: string;
  /** The entry whose result was the card's state before this answer. */
  previousEntry: string | undefined;
  /** The card's version after the server stored the answer. */
  savedVersion: number | null;
};

/** Opens a session: replays answers left in the store, then loads the cards and serves the first. */
export async function openSession(supabase: EngramClient, options: ReviewSessionOptions = {}): Promise<ReviewSession> {
  const userId = await currentUserId(supabase);
  const scheduler = options.scheduler ?? (await loadScheduler(supabase));
  const session = new ReviewSession(scheduler, userId, options.now ?? (() => new Date()), {
    preview: options.preview ?? false,
    custom: (options.custom ?? false) || (options.preview ?? false),
  });
  const retry = { ...defaultRetry, ...options.retry };
  const outbox = new Outbox(supabase, options.store ?? memoryReviewStore(), userId, scheduler, retry, session.receive);
  await outbox.open();
  try {
    const cards = options.cards ?? (await fetchQueue(supabase, { deckId: options.deckId }));
    session.start(outbox, cards);
  } catch (error) {
    await outbox.close();
    throw error;
  }
  return session;
}

export class ReviewSession {
  private outbox!: Outbox;
  private main: StudyCard[] = [];
  private learning: StudyCard[] = [];
  private shown: CurrentCard | null = null;
  private history: UndoStep[] = [];
  /** card_id → the entry whose result is the card's state here; later results of older entries are ignored. */
  private readonly latestEntry = new Map<string, string>();
  /** Results acknowledged while the cards were still loading. */
  private readonly savedWhileOpening = new Map<string, ScheduledCard>();
  /** Leeches suspended by answers acknowledged while the cards were still loading. */
  private readonly suspendedWhileOpening = new Set<string>();
  private readonly listeners = new Set<(event: ReviewSessionEvent) => void>();
  private state: ReviewSessionState | null = null;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  /** Answers given in a preview, to name each for undo. */
  private flips = 0;
  /**
   * card_id → how often the card was taken out or put back here (remove,
   * restore, undo). A schedule read that started before such a change is
   * stale for that card: it must not take out a card the user just brought back.
   */
  private readonly localChanges = new Map<string, number>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly userId: string,
    private readonly now: () => Date,
    private readonly mode: { preview: boolean; custom: boolean } = { preview: false, custom: false },
  ) {}

  private get preview(): boolean {
    return this.mode.preview;
  }

  /** The card to show now; served from memory, never waits for the network. */
  get current(): CurrentCard | null {
    return this.shown;
  }

  get counts(): SessionCounts {
    return this.getState().counts;
  }

  /** Everything a UI shows, as one value that changes identity only when something changed. */
  readonly getState = (): ReviewSessionState => {
    this.state ??= this.snapshot();
    return this.state;
  };

  /** Calls the listener on every change and on every outbox event; returns the unsubscribe function. */
  readonly subscribe = (listener: (event: ReviewSessionEvent) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Answers the current card and moves to the next at once. The answer is
   * written to the store, then sent in the background. `durationMs` defaults
   * to the time since the card was shown.
   */
  answer(rating: Rating, options: { durationMs?: number } = {}): AnsweredCard {
    const shown = this.shown;
    if (!shown) throw new EngramError("not-found", "There is no card to answer.");
    if (this.preview) return this.flip(shown.card, rating);
    const reviewedAt = this.now();
    const elapsed = Math.min(limits.maxDurationMs, Math.max(0, reviewedAt.getTime() - shown.shownAt.getTime()));
    const answer = computeAnswer(this.scheduler, {
      card: shown.card,
      rating,
      duration_ms: options.durationMs ?? elapsed,
      reviewed_at: reviewedAt,
    });
    const entry: PendingAnswer = {
      kind: "answer",
      id: answer.client_review_id,
      user_id: this.userId,
      seq: this.outbox.nextSeq(),
      ...answer,
    };
    const cardId = shown.card.card_id;
    const after: StudyCard = {
      ...shown.card,
      queue: "learning",
      schedule: scheduleFromRow(answer.next),
      version: answer.expected_version + 1,
    };
    this.history.push({
      before: shown.card,
      answerId: entry.id,
      previousEntry: this.latestEntry.get(cardId),
      savedVersion: null,
    });
    if (this.history.length > defaults.undoDepth) this.history.shift();
    this.latestEntry.set(cardId, entry.id);
    if (isLearning(after.schedule)) this.insertLearning(after);
    this.shown = null;
    this.outbox.add(entry);
    this.advance();
    return { clientReviewId: entry.id, card: after };
  }

  get canUndo(): boolean {
    return this.history.length > 0;
  }

  /**
   * Takes back the last answer (up to ten) and shows its card again. An answer
   * not sent yet is dropped from the store; a sent one is undone on the server
   * (queued like answers, so it works offline too). Returns the card, or null
   * when there is nothing to undo.
   */
  undo(): StudyCard | null {
    const step = this.history.pop();
    if (!step) return null;
    const cardId = step.before.card_id;
    this.touch([cardId]);
    if (this.shown && this.shown.card.card_id !== cardId) this.putBack(this.shown.card);
    this.learning = this.learning.filter((card) => card.card_id !== cardId);
    let version: number;
    if (this.preview) {
      // Again put the card back at the end; undo shows it now instead.
      this.main = this.main.filter((card) => card.card_id !== cardId);
      version = step.before.version;
    } else if (this.outbox.retract(step.answerId)) {
      version = step.before.version;
      if (step.previousEntry === undefined) this.latestEntry.delete(cardId);
      else this.latestEntry.set(cardId, step.previousEntry);
    } else {
      const id = `undo:${step.answerId}`;
      this.outbox.add({
        kind: "undo",
        id,
        user_id: this.userId,
        seq: this.outbox.nextSeq(),
        client_review_id: step.answerId,
      });
      this.latestEntry.set(cardId, id);
      // undo_review bumps the version once more; the server's answer corrects this guess if it differs
      version = (step.savedVersion ?? step.before.version + 1) + 1;
    }
    const restored = { ...step.before, version };
    clearTimeout(this.waitTimer);
    this.shown = this.show(restored);
    this.changed();
    return restored;
  }

  /**
   * Shows a note's new content (edited during the session) on its cards here,
   * the one on screen included. Cards the edit removed (a cloze number deleted)
   * leave the session; if that was the current card, the next one is shown.
   * Returns how many cards of the session showed this note.
   */
  updateNote(note: StudyNote): number {
    const ordinals = new Set(cardOrdinals(note));
    let found = 0;
    const keep = (card: StudyCard): StudyCard | null => {
      if (card.note.id !== note.id) return card;
      found++;
      return ordinals.has(card.ordinal) ? { ...card, note } : null;
    };
    const kept = (cards: StudyCard[]) => cards.map(keep).filter((card): card is StudyCard => card !== null);
    this.main = kept(this.main);
    this.learning = kept(this.learning);
    this.history = this.history.map((step) => ({ ...step, before: keep(step.before) ?? step.before }));
    if (this.shown) {
      const card = keep(this.shown.card);
      if (card === null) {
        this.advance();
        return found;
      }
      this.shown = { ...this.shown, card };
    }
    if (found > 0) this.changed();
    return found;
  }

  /**
   * Takes cards out of the session at once (suspended or buried while
   * studying); if the one on screen is among them, the next is shown. Returns
   * the cards taken out, the one on screen first, for `restore`.
   */
  remove(cardIds: readonly string[]): StudyCard[] {
    const ids = new Set(cardIds);
    this.touch(ids);
    const onScreen = this.shown !== null && ids.has(this.shown.card.card_id);
    const removed = [
      ...(onScreen && this.shown ? [this.shown.card] : []),
      ...this.main.filter((card) => ids.has(card.card_id)),
      ...this.learning.filter((card) => ids.has(card.card_id)),
    ];
    if (removed.length === 0) return removed;
    this.main = this.main.filter((card) => !ids.has(card.card_id));
    this.learning = this.learning.filter((card) => !ids.has(card.card_id));
    if (onScreen) this.advance();
    else this.changed();
    return removed;
  }

  /**
   * Puts cards taken out by `remove` back (the suspend or bury was undone):
   * the first is shown at once, the others come next. `versions` are their
   * schedules' versions now, when the change back bumped them.
   */
  restore(cards: readonly StudyCard[], versions: ReadonlyMap<string, number> = new Map()): void {
    const ids = new Set(cards.map((card) => card.card_id));
    this.touch(ids);
    const [first, ...rest] = cards.map((card) => ({ ...card, version: versions.get(card.card_id) ?? card.version }));
    if (!first) return;
    this.main = this.main.filter((card) => !ids.has(card.card_id));
    this.learning = this.learning.filter((card) => !ids.has(card.card_id));
    if (this.shown && !ids.has(this.shown.card.card_id)) this.putBack(this.shown.card);
    for (const card of rest.reverse()) this.putBack(card);
    clearTimeout(this.waitTimer);
    this.shown = this.show(first);
    this.changed();
  }

  /** Takes out every card of these notes still in the session (a note buried), as `remove` does. */
  removeNotes(noteIds: readonly string[]): StudyCard[] {
    const notes = new Set(noteIds);
    return this.remove(
      this.cards()
        .filter((card) => notes.has(card.note.id))
        .map((card) => card.card_id),
    );
  }

  /** The ids of the cards still to come in this session, the one on screen first. */
  cardIds(): string[] {
    return this.cards().map((card) => card.card_id);
  }

  /**
   * @internal How often each card was taken out or put back here so far; take
   * it before reading schedules and pass it to `leaveElsewhere` with what was read.
   */
  localChangeMarks(cardIds: readonly string[]): Map<string, number> {
    return new Map(cardIds.map((id) => [id, this.localChanges.get(id) ?? 0]));
  }

  /**
   * @internal Takes out the cards the server now holds suspended or buried
   * until later, except those taken out or put back here since `marks` were
   * taken (an undo here wins over a read that started before it) and those
   * whose answer here is still on its way. Announces them in a
   * `left-elsewhere` event and returns them.
   */
  leaveElsewhere(schedules: readonly HeldSchedule[], marks: ReadonlyMap<string, number>): LeftElsewhere[] {
    const now = this.now().getTime();
    const reasons = new Map<string, LeftElsewhereReason>();
    for (const row of schedules) {
      const mark = marks.get(row.card_id);
      if (mark === undefined || mark !== (this.localChanges.get(row.card_id) ?? 0)) continue;
      // An answer here not acknowledged yet may be what suspended it (a leech): its result decides.
      if (this.awaitingServer(row.card_id)) continue;
      if (row.suspended) reasons.set(row.card_id, "suspended");
      else if (row.buried_until !== null && Date.parse(row.buried_until) > now) reasons.set(row.card_id, "buried");
    }
    if (reasons.size === 0) return [];
    const left = this.remove([...reasons.keys()]).map((card) => ({
      card,
      reason: reasons.get(card.card_id) ?? "suspended",
    }));
    if (left.length > 0) this.notify({ type: "left-elsewhere", cards: left });
    return left;
  }

  /** Answers and undos not acknowledged by the server yet, oldest first. */
  pending(): readonly PendingEntry[] {
    return this.outbox.pending();
  }

  /** Sends the answers the server refused once more. */
  retryFailures(): void {
    this.outbox.retryFailures();
    this.changed();
  }

  /** Forgets an answer the server refused for good. */
  async dismissFailure(id: string): Promise<void> {
    await this.outbox.dismiss(id);
    this.changed();
  }

  /** Sends what is pending now; resolves when the server has all of it, rejects (e.g. `network`) otherwise. */
  flush(): Promise<void> {
    return this.outbox.flush();
  }

  /** Stops the session; answers not sent yet stay in the store for the next session on this device. */
  async close(): Promise<void> {
    clearTimeout(this.waitTimer);
    await this.outbox.close();
    this.listeners.clear();
  }

  /** @internal Called by openSession once the cards are loaded. */
  start(outbox: Outbox, cards: StudyCard[]): void {
    this.outbox = outbox;
    const known = new Map(this.savedWhileOpening);
    for (const entry of outbox.pending()) {
      if (entry.kind !== "answer") continue;
      const schedule = scheduleFromRow(entry.next);
      known.set(entry.card_id, { card_id: entry.card_id, schedule, version: entry.expected_version + 1 });
      this.latestEntry.set(entry.card_id, entry.id);
    }
    for (const loaded of cards) {
      if (this.suspendedWhileOpening.has(loaded.card_id)) continue;
      // An answer the loaded cards do not reflect yet (still pending, or saved meanwhile) decides.
      const newer = known.get(loaded.card_id);
      const card: StudyCard =
        newer && newer.version > loaded.version ? { ...loaded, ...newer, queue: "learning" } : loaded;
      if (this.mode.custom) this.main.push(card);
      else if (isLearning(card.schedule)) this.insertLearning(card);
      else if (card.queue !== "learning") this.main.push(card);
    }
    this.advance();
  }

  /** @internal The outbox's events: keep the cards here in line with what the server stored. */
  readonly receive = (event: OutboxEvent): void => {
    if (event.type === "saved") {
      this.reconcile(event.entry.id, event.result);
      const step = this.history.find((candidate) => candidate.answerId === event.entry.id);
      if (step) step.savedVersion = event.result.version;
      if (event.result.leech?.suspended) this.leaveSuspended(event.entry.id, event.result.card_id);
    } else if (event.type === "undone" && event.result) {
      this.suspendedWhileOpening.delete(event.result.card_id);
      this.reconcile(event.entry.id, event.result);
    } else if (event.type === "dropped") {
      const answeredElsewhere = this.latestEntry.get(event.current.card_id) === event.entry.id;
      this.reconcile(event.entry.id, event.current);
      if (answeredElsewhere) this.leaveUnlessLearning(event.current);
    }
    if (this.outbox) this.changed();
    this.notify(event);
  };

  private reconcile(entryId: string, server: ScheduledCard): void {
    if (!this.outbox) {
      this.savedWhileOpening.set(server.card_id, server);
      return;
    }
    if (this.latestEntry.get(server.card_id) !== entryId) return;
    const update = (card: StudyCard): StudyCard =>
      card.card_id === server.card_id ? { ...card, schedule: server.schedule, version: server.version } : card;
    if (this.shown?.card.card_id === server.card_id) {
      this.shown = { ...this.show(update(this.shown.card)), shownAt: this.shown.shownAt };
    }
    this.main = this.main.map(update);
    const inLearning = this.learning.find((card) => card.card_id === server.card_id);
    if (inLearning) {
      this.learning = this.learning.filter((card) => card.card_id !== server.card_id);
      if (isLearning(server.schedule)) this.insertLearning(update(inLearning));
    }
  }

  /**
   * After another device's answer stood instead of this one's: the card left
   * the queue there, so it leaves here too (else it would be shown and
   * answered again), unless it is still in learning (reconcile kept it then).
   */
  private leaveUnlessLearning(server: ScheduledCard): void {
    if (!this.outbox || isLearning(server.schedule)) return;
    this.leave(server.card_id);
  }

  /**
   * The answer made the card a leech and the server suspended it: it leaves
   * the session however late the answer was sent (offline), unless the card
   * was answered again or the answer undone here since.
   */
  private leaveSuspended(entryId: string, cardId: string): void {
    if (!this.outbox) this.suspendedWhileOpening.add(cardId);
    else if (this.latestEntry.get(cardId) === entryId) this.leave(cardId);
  }

  private leave(cardId: string): void {
    this.main = this.main.filter((card) => card.card_id !== cardId);
    this.learning = this.learning.filter((card) => card.card_id !== cardId);
    if (this.shown?.card.card_id === cardId) this.advance();
  }

  /** A preview's answer: nothing recorded; Again shows the card again after the others. */
  private flip(card: StudyCard, rating: Rating): AnsweredCard {
    const id = `preview:${++this.flips}`;
    this.history.push({ before: card, answerId: id, previousEntry: undefined, savedVersion: null });
    if (this.history.length > defaults.undoDepth) this.history.shift();
    if (rating === 1) this.main.push(card);
    this.shown = null;
    this.advance();
    return { clientReviewId: id, card };
  }

  /** Learning cards due now first, then the queue in order, then learning cards due within 20 minutes. */
  private advance(): void {
    clearTimeout(this.waitTimer);
    const now = this.now();
    const first = this.learning[0];
    let next: StudyCard | undefined;
    if (first && first.schedule.due <= now) next = this.learning.shift();
    else if (this.main.length > 0) next = this.main.shift();
    else if (first && first.schedule.due.getTime() <= now.getTime() + learnAheadMs) next = this.learning.shift();
    this.shown = next ? this.show(next) : null;
    if (!next && first) {
      const wait = first.schedule.due.getTime() - learnAheadMs - now.getTime();
      this.waitTimer = setTimeout(() => {
        if (!this.shown) this.advance();
      }, wait);
    }
    this.changed();
  }

  private show(card: StudyCard): CurrentCard {
    const now = this.now();
    return { card, intervals: previewIntervals(this.scheduler, card.schedule, now), shownAt: now };
  }

  private putBack(card: StudyCard): void {
    if (card.queue === "learning") this.insertLearning(card);
    else this.main.unshift(card);
  }

  private insertLearning(card: StudyCard): void {
    this.learning.push(card);
    this.learning.sort((a, b) => a.schedule.due.getTime() - b.schedule.due.getTime());
  }

  /** The cards still to come, the one on screen first. */
  private cards(): StudyCard[] {
    return this.shown ? [this.shown.card, ...this.main, ...this.learning] : [...this.main, ...this.learning];
  }

  /** The card's latest answer or undo here has not been acknowledged by the server yet. */
  private awaitingServer(cardId: string): boolean {
    const latest = this.latestEntry.get(cardId);
    return latest !== undefined && this.outbox.pending().some((entry) => entry.id === latest);
  }

  private touch(cardIds: Iterable<string>): void {
    for (const id of cardIds) this.localChanges.set(id, (this.localChanges.get(id) ?? 0) + 1);
  }

  private changed(): void {
    this.state = this.snapshot();
    this.notify({ type: "change", state: this.state });
  }

  /** A listener that throws must not stop the others or the sending; its error is reported on its own. */
  private notify(event: ReviewSessionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  private snapshot(): ReviewSessionState {
    const counts: SessionCounts = { new: 0, learning: 0, review: 0 };
    const cards = this.shown ? [this.shown.card, ...this.main, ...this.learning] : [...this.main, ...this.learning];
    for (const card of cards) counts[card.queue]++;
    const waiting = !this.shown && this.learning[0];
    return {
      current: this.shown,
      counts,
      pending: this.outbox?.pending().length ?? 0,
      offline: this.outbox?.waitingError?.code === "network",
      waitingError: this.outbox?.waitingError ?? null,
      failures: this.outbox?.failed() ?? [],
      canUndo: this.history.length > 0,
      nextAt: waiting ? new Date(waiting.schedule.due.getTime() - learnAheadMs) : null,
      done: !this.shown && this.learning.length === 0,
    };
  }
}
