import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "../support/database.js";
import {
  addBasicCards,
  createDeck,
  logsOf,
  type ReviewInput,
  recordReview,
  type User,
} from "../support/study-fixtures.js";

// Races between concurrent requests need two connections, which PGlite (one
// connection) cannot have: the config runs this folder on PostgreSQL only.

let db: Database;
let alice: User;
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  alice = await createUser(db, { displayName: "Alice" });
  deck = await createDeck(db, alice, { name: "Spanish" });
});
afterAll(() => db.close());

/** Resolves once some session of this database waits for a lock held by another. */
async function waitForLockWait(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const waiting = await db.query(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (waiting.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no session started waiting for a lock");
}

describe("record_review under concurrency", () => {
  test("a retry sent while the original is still being stored waits for it and returns the stored schedule", async () => {
    const [card] = (await addBasicCards(db, alice, deck, 1, "Palabra")) as [string];
    const answer: ReviewInput = { cardId: card, clientReviewId: randomUUID(), expectedVersion: 0 };
    let stored!: () => void;
    const originalStored = new Promise<void>((resolve) => (stored = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));

    // The original request has written its answer but not committed yet ...
    const original = actAs(db, alice, async (tx) => {
      const row = await recordReview(tx, answer);
      stored();
      await mayCommit;
      return row;
    });
    await originalStored;
    // ... when the device, tired of waiting, sends it again.
    const retry = actAs(db, alice, (tx) => recordReview(tx, answer));
    await waitForLockWait();
    commit();

    const [first, second] = await Promise.all([original, retry]);
    expect(second).toEqual(first);
    expect(await logsOf(db, alice.id, card)).toHaveLength(1);
  });
});
