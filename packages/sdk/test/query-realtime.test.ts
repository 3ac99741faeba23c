import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { createEngram, type Engram } from "../src/client.js";
import { engramKeys, engramQueries, wireRealtime } from "../src/query/index.js";
import { adminClient, signedIn, supabaseClient } from "./support/engram.js";

/** The same user on a second device. */
async function secondDevice(account: { email: string; password: string }) {
  const engram = createEngram(supabaseClient());
  await engram.auth.signIn(account);
  return engram;
}

/** Wires the cache and waits until the server has confirmed every subscription. */
async function wired(engram: Engram, queryClient: QueryClient, deckIds: string[] = []) {
  let stop: () => Promise<void> = async () => {};
  await new Promise<void>((resolve, reject) => {
    stop = wireRealtime(engram, queryClient, { deckIds, onReady: resolve, onError: reject });
  });
  return stop;
}

describe("realtime → query cache", () => {
  test("a note added on another device refreshes this device's note list; stopping ends it", async () => {
    const { engram, account } = await signedIn("wired");
    const deck = await engram.decks.create({ name: "Pharmacology" });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const notes = new QueryObserver(queryClient, engramQueries(engram).notes.list(deck.id));
    const unsubscribe = notes.subscribe(() => {});

    const stop = await wired(engram, queryClient, [deck.id]);
    await vi.waitFor(() => expect(notes.getCurrentResult().data?.total).toBe(0));

    const other = await secondDevice(account);
    await other.notes.create(deck.id, { kind: "basic", fields: { front: "Aspirin class?", back: "NSAID" } });
    await vi.waitFor(() => expect(notes.getCurrentResult().data?.total).toBe(1));

    await stop();
    await other.notes.create(deck.id, { kind: "basic", fields: { front: "Ibuprofen class?", back: "NSAID" } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queryClient.getQueryState(engramKeys.notes.list(deck.id, {}))?.isInvalidated).toBe(false);
    expect(notes.getCurrentResult().data?.total).toBe(1);
    unsubscribe();
  });

  test("a note edited on another device marks that note stale, named by the change's ids", async () => {
    const { engram, account } = await signedIn("editor");
    const deck = await engram.decks.create({ name: "Anatomy" });
    const fields = { front: "Longest bone?", back: "Femur" };
    const [note, other] = await Promise.all([
      engram.notes.create(deck.id, { kind: "basic", fields }),
      engram.notes.create(deck.id, { kind: "basic", fields: { front: "Smallest bone?", back: "Stapes" } }),
    ]);
    const queryClient = new QueryClient();
    await queryClient.fetchQuery(engramQueries(engram).notes.detail(note.id));
    await queryClient.fetchQuery(engramQueries(engram).notes.detail(other.id));
    const stop = await wired(engram, queryClient, [deck.id]);

    const device = await secondDevice(account);
    await device.notes.update(note.id, note.version, { kind: "basic", fields: { ...fields, back: "The femur" } });
    await vi.waitFor(() =>
      expect(queryClient.getQueryState(engramKeys.notes.detail(note.id))?.isInvalidated).toBe(true),
    );
    expect(queryClient.getQueryState(engramKeys.notes.detail(other.id))?.isInvalidated).toBe(false);
    await stop();
  });

  test("import progress is written into the cache as it arrives", async () => {
    const { engram, account } = await signedIn("importer");
    const deck = await engram.decks.create({ name: "Imported" });
    const queryClient = new QueryClient();
    const stop = await wired(engram, queryClient);

    const { data: job, error } = await adminClient()
      .from("import_jobs")
      .insert({ user_id: account.id, deck_id: deck.id, source: "csv", status: "running", processed: 10, total: 100 })
      .select()
      .single();
    if (error) throw error;
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(engramKeys.imports.detail(job.id))).toMatchObject({ processed: 10 }),
    );
    await adminClient().from("import_jobs").update({ processed: 60 }).eq("id", job.id);
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(engramKeys.imports.detail(job.id))).toMatchObject({ processed: 60 }),
    );
    await stop();
  });

  test("an answer given on another device marks this device's study queue stale", async () => {
    const { engram, account } = await signedIn("studier");
    const deck = await engram.decks.create({ name: "Cardiology" });
    await engram.notes.create(deck.id, { kind: "basic", fields: { front: "Normal resting HR?", back: "60–100" } });
    const queryClient = new QueryClient();
    const queue = await queryClient.fetchQuery(engramQueries(engram).study.queue());
    expect(queue).toHaveLength(1);

    const stop = await wired(engram, queryClient);

    const other = await secondDevice(account);
    const [card] = await other.study.queue();
    if (!card) throw new Error("no card");
    await other.study.recordReview({ card, rating: 3, duration_ms: 2000 });
    await vi.waitFor(() => expect(queryClient.getQueryState(engramKeys.study.queue({}))?.isInvalidated).toBe(true));
    await stop();
  });
});
