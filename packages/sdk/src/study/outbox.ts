/**
 * Sends stored answers and undos to the server one at a time, in the order
 * they were made, until each is acknowledged. A lost connection (or an
 * expired session, or the user signed out) keeps them and retries with
 * backoff; a stale answer is recomputed on the server's schedule or dropped
 * (see `rebaseAnswer`); any other refusal is kept in the store, marked as
 * failed, and reported.
 */
import type { Scheduler } from "@engram/core";
import { EngramError, toEngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";
import { type RecordedReview, readScheduledCard, rebaseAnswer, sendAnswer, sendUndo } from "./answers.js";
import type { ScheduledCard } from "./cards.js";
import type { PendingAnswer, PendingEntry, PendingUndo, ReviewStore } from "./store.js";

export type RetryOptions = {
  /** The first wait after a failed send; doubled after each further failure. */
  initialDelayMs: number;
  maxDelayMs: number;
};

export const defaultRetry: RetryOptions = { initialDelayMs: 1_000, maxDelayMs: 60_000 };

export type OutboxEvent =
  | { type: "saved"; entry: PendingAnswer; result: RecordedReview }
  | { type: "undone"; entry: PendingUndo; result: ScheduledCard | null }
  | { type: "dropped"; entry: PendingAnswer; current: ScheduledCard }
  | { type: "failed"; entry: PendingEntry; error: EngramError }
  /** A send could not get through (no connection, or the user signed out); it is retried at `retryAt`. */
  | { type: "retrying"; error: EngramError; retryAt: Date }
  | { type: "store-error"; error: EngramError };

/** In a browser, the `online` event ends the wait for the next retry. */
const browser = globalThis as {
  addEventListener?(type: "online", listener: () => void): void;
  removeEventListener?(type: "online", listener: () => void): void;
};

/** Refusals that say nothing about the answer itself: keep it and try again later. */
const retryableCodes = new Set(["network", "auth/session-expired"]);
/** Another device may keep winning the race; give up after this many recomputations. */
const maxRebases = 3;

export class Outbox {
  private entries: PendingEntry[] = [];
  private failures: PendingEntry[] = [];
  private readonly writes = new Map<string, Promise<void>>();
  private inFlight: string | null = null;
  private draining: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private lastSeq = 0;
  private closed = false;
  private lastError: EngramError | null = null;

  constructor(
    private readonly supabase: EngramClient,
    private readonly store: ReviewStore,
    private readonly userId: string,
    private readonly scheduler: Scheduler,
    private readonly retry: RetryOptions,
    private readonly emit: (event: OutboxEvent) => void,
  ) {}

  /** Reads what an earlier session left in the store and starts sending it. */
  async open(): Promise<void> {
    const stored = (await this.store.list()).filter((entry) => entry.user_id === this.userId);
    stored.sort((a, b) => a.seq - b.seq);
    this.entries = stored.filter((entry) => entry.failure === undefined);
    this.failures = stored.filter((entry) => entry.failure !== undefined);
    this.lastSeq = stored.at(-1)?.seq ?? 0;
    browser.addEventListener?.("online", this.wake);
    this.wake();
  }

  /** Answers and undos not yet acknowledged, oldest first. */
  pending(): readonly PendingEntry[] {
    return this.entries;
  }

  /** Entries the server refused for good (kept in the store until dismissed). */
  failed(): readonly PendingEntry[] {
    return this.failures;
  }

  /** Why the pending entries are waiting (`network`, or the user signed out), if the last attempt failed. */
  get waitingError(): EngramError | null {
    return this.entries.length > 0 ? this.lastError : null;
  }

  nextSeq(): number {
    this.lastSeq = Math.max(Date.now() * 1000, this.lastSeq + 1);
    return this.lastSeq;
  }

  /** Stores the entry, then sends it after everything before it. */
  add(entry: PendingEntry): void {
    this.entries.push(entry);
    this.write(entry.id, () => this.store.put(entry));
    this.wake();
  }

  /** Takes an answer back before it was sent; false if it is on its way or already stored on the server. */
  retract(answerId: string): boolean {
    const index = this.entries.findIndex((entry) => entry.id === answerId);
    if (index < 0 || this.inFlight === answerId) return false;
    this.entries.splice(index, 1);
    this.write(answerId, () => this.store.delete(answerId));
    return true;
  }

  /** Sends the failed entries once more (e.g. after the user fixed what the server refused). */
  retryFailures(): void {
    const failed = this.failures;
    this.failures = [];
    for (const { failure: _failure, ...entry } of failed) {
      this.entries.push(entry);
      this.write(entry.id, () => this.store.put(entry));
    }
    this.entries.sort((a, b) => a.seq - b.seq);
    this.wake();
  }

  /** Forgets a failed entry. */
  async dismiss(id: string): Promise<void> {
    this.failures = this.failures.filter((entry) => entry.id !== id);
    await this.store.delete(id);
  }

  /** Sends now; resolves once nothing is pending, rejects with the error that stopped it. */
  async flush(): Promise<void> {
    this.attempt = 0;
    clearTimeout(this.retryTimer);
    await this.draining;
    await this.drain();
    if (this.entries.length > 0) {
      throw this.lastError ?? new EngramError("network", "The answers could not be sent yet.");
    }
  }

  /** Stops sending (what is pending stays in the store for the next session) once the current send ends. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    browser.removeEventListener?.("online", this.wake);
    await this.draining;
    await Promise.all(this.writes.values());
  }

  private readonly wake = (): void => {
    if (this.closed || this.draining) return;
    clearTimeout(this.retryTimer);
    void this.drain();
  };

  /** Store writes for one entry run in order (a delete never overtakes its put). */
  private write(id: string, operation: () => Promise<void>): void {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous.then(operation).catch((error: unknown) => {
      this.emit({ type: "store-error", error: toEngramError(error) });
    });
    this.writes.set(id, next);
    void next.then(() => {
      if (this.writes.get(id) === next) this.writes.delete(id);
    });
  }

  private drain(): Promise<void> {
    this.draining ??= this.sendAll().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async sendAll(): Promise<void> {
    while (!this.closed) {
      const entry = this.entries[0];
      if (!entry) return;
      this.inFlight = entry.id;
      let sentAs: string | undefined;
      let outcome: OutboxEvent;
      try {
        await this.writes.get(entry.id);
        sentAs = await this.signedInUser();
        outcome = await this.deliver(entry);
        this.write(entry.id, () => this.store.delete(entry.id));
        this.attempt = 0;
        this.lastError = null;
      } catch (thrown) {
        const error = toEngramError(thrown);
        if (retryableCodes.has(error.code) || (await this.signedOut(error, sentAs))) {
          this.inFlight = null;
          this.scheduleRetry(error);
          return;
        }
        const failed = { ...entry, failure: { code: error.code, message: error.message } };
        this.failures.push(failed);
        this.write(entry.id, () => this.store.put(failed));
        outcome = { type: "failed", entry: failed, error };
      }
      this.inFlight = null;
      this.entries = this.entries.filter((pending) => pending.id !== entry.id);
      this.emit(outcome);
    }
  }

  /**
   * A refusal because the user was not signed in here when it was sent (or is
   * not now): the answers wait for them to sign in again.
   */
  private async signedOut(error: EngramError, sentAs: string | undefined): Promise<boolean> {
    if (error.code !== "permission-denied") return false;
    return sentAs !== this.userId || (await this.signedInUser()) !== this.userId;
  }

  private async signedInUser(): Promise<string | undefined> {
    const { data } = await this.supabase.auth.getSession();
    return data.session?.user.id;
  }

  private async deliver(entry: PendingEntry): Promise<OutboxEvent> {
    if (entry.kind === "undo") return { type: "undone", entry, result: await this.undo(entry) };
    let answer = entry;
    for (let rebases = 0; ; rebases++) {
      try {
        return { type: "saved", entry: answer, result: await sendAnswer(this.supabase, answer) };
      } catch (error) {
        if (!(error instanceof EngramError) || error.code !== "conflict" || rebases >= maxRebases) throw error;
        const current = isScheduledCard(error.detail)
          ? error.detail
          : await readScheduledCard(this.supabase, answer.card_id);
        if (!current) throw error;
        const rebased = rebaseAnswer(this.scheduler, answer, current);
        if (!rebased) return { type: "dropped", entry: answer, current };
        answer = { ...answer, ...rebased };
        const stored = answer;
        this.entries = this.entries.map((pending) => (pending.id === stored.id ? stored : pending));
        this.write(stored.id, () => this.store.put(stored));
        await this.writes.get(stored.id);
      }
    }
  }

  /** An undo of an answer the server never stored (refused, or already undone) has nothing left to do. */
  private async undo(entry: PendingUndo): Promise<ScheduledCard | null> {
    try {
      return await sendUndo(this.supabase, entry.client_review_id);
    } catch (error) {
      if (error instanceof EngramError && error.code === "not-found") return null;
      throw error;
    }
  }

  private scheduleRetry(error: EngramError): void {
    this.lastError = error;
    const delay = Math.min(this.retry.maxDelayMs, this.retry.initialDelayMs * 2 ** this.attempt);
    this.attempt++;
    // Jitter keeps devices that lost the connection together from retrying together.
    const wait = delay / 2 + Math.random() * (delay / 2);
    this.emit({ type: "retrying", error, retryAt: new Date(Date.now() + wait) });
    this.retryTimer = setTimeout(this.wake, wait);
  }
}

function isScheduledCard(value: unknown): value is ScheduledCard {
  return typeof value === "object" && value !== null && "schedule" in value && "version" in value;
}
