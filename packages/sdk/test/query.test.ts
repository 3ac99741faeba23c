import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { engramKeys, engramMutations, engramQueries } from "../src/query/index.js";
import { signedIn } from "./support/engram.js";

function setup(engram: Awaited<ReturnType<typeof signedIn>>["engram"]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { queryClient, queries: engramQueries(engram), mutations: engramMutations(engram, queryClient) };
}

describe("React Query factories", () => {
  test("a query's key and function are one value: fetching it caches under the resource's key", async () => {
    const { engram } = await signedIn();
    const { queryClient, queries } = setup(engram);
    await engram.decks.create({ name: "Anatomy" });
    const decks = await queryClient.fetchQuery(queries.decks.list());
    expect(decks.map((d) => d.name)).toEqual(["Anatomy"]);
    expect(queryClient.getQueryData(engramKeys.decks.list())).toBe(decks);
    expect(queries.decks.list().queryKey[0]).toBe("decks");
  });

  test("creating, renaming and deleting a deck refetch the deck list before the mutation settles", async () => {
    const { engram } = await signedIn();
    const { queryClient, queries, mutations } = setup(engram);
    const list = queries.decks.list();
    // An observer keeps the list active, as a mounted component would, so invalidation refetches it.
    const observer = new QueryObserver(queryClient, list);
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));

    const created = await new MutationObserver(queryClient, mutations.decks.create()).mutate({ name: "Botany" });
    expect(queryClient.getQueryData(list.queryKey)?.map((d) => d.id)).toEqual([created.id]);

    await new MutationObserver(queryClient, mutations.decks.update()).mutate({
      deckId: created.id,
      patch: { name: "Plant biology" },
    });
    expect(queryClient.getQueryData(list.queryKey)?.[0]?.name).toBe("Plant biology");

    await new MutationObserver(queryClient, mutations.decks.remove()).mutate(created.id);
    expect(queryClient.getQueryData(list.queryKey)).toEqual([]);
    unsubscribe();
  });

  test("a failed mutation rejects with the EngramError and leaves the cache as it was", async () => {
    const { engram } = await signedIn();
    const { queryClient, queries, mutations } = setup(engram);
    const before = await queryClient.fetchQuery(queries.decks.list());
    const error = await new MutationObserver(queryClient, mutations.decks.create())
      .mutate({ name: "" })
      .catch((e) => e);
    expect(error).toMatchObject({ name: "EngramError", code: "validation", field: "name" });
    expect(queryClient.getQueryData(engramKeys.decks.list())).toBe(before);
  });

  test("a deck's notes page in as a list scrolls, under the deck's notes key, until the total is reached", async () => {
    const { engram } = await signedIn();
    const { queryClient, queries, mutations } = setup(engram);
    const deck = await engram.decks.create({ name: "Paging" });
    for (const front of ["a", "b", "c", "d", "e"]) {
      await engram.notes.create(deck.id, { kind: "basic", fields: { front, back: "x" } });
    }
    const options = queries.notes.pages(deck.id, { sort: "oldest" }, 2);
    expect(options.queryKey.slice(0, 3)).toEqual(engramKeys.notes.deck(deck.id));
    const observer = new InfiniteQueryObserver(queryClient, options);
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    await observer.fetchNextPage();
    const result = await observer.fetchNextPage();
    const fronts = result.data?.pages.flatMap((page) => page.notes.map((n) => (n.fields as { front: string }).front));
    expect(fronts).toEqual(["a", "b", "c", "d", "e"]);
    expect(result.hasNextPage).toBe(false);

    const ids = (await engram.notes.ids(deck.id)).ids.slice(0, 2);
    await new MutationObserver(queryClient, mutations.cards.setSuspendedForNotes()).mutate({
      noteIds: ids,
      suspended: true,
    });
    const schedules = await engram.cards.schedules({ deckId: deck.id });
    expect(schedules.filter((s) => s.suspended)).toHaveLength(2);
    unsubscribe();
  });

  test("signing out clears every cached query", async () => {
    const { engram } = await signedIn();
    const { queryClient, queries, mutations } = setup(engram);
    await queryClient.fetchQuery(queries.profile.get());
    await new MutationObserver(queryClient, mutations.auth.signOut()).mutate("local");
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(await engram.auth.getSession()).toBeNull();
  });
});
