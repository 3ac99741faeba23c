import { randomUUID } from "node:crypto";
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { createEngram, type Engram } from "../src/client.js";
import { engramChanges, engramInvalidations, engramKeys, engramMutations, engramQueries } from "../src/query/index.js";
import { type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const fetchBytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

function setup(engram: Engram) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { queryClient, queries: engramQueries(engram), mutations: engramMutations(engram, queryClient) };
}

async function join(owner: SignedIn, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

describe("signed links through the React Query factories", () => {
  test("an avatar's link is cached under the profile, fetched only for a path, and removing the picture refreshes both", async () => {
    const { engram } = await signedIn("query-avatar");
    const { queryClient, queries, mutations } = setup(engram);
    const path = await engram.storage.uploadAvatar(new Blob([png], { type: "image/png" }));

    const link = queries.profile.avatarUrl(path);
    expect(link.queryKey).toEqual(["profile", "avatar-url", path]);
    expect(await fetchBytes(await queryClient.fetchQuery(link))).toEqual(png);
    expect(queries.profile.avatarUrl(null).enabled).toBe(false);

    const profile = new QueryObserver(queryClient, queries.profile.get());
    const unsubscribe = profile.subscribe(() => {});
    await vi.waitFor(() => expect(profile.getCurrentResult().data?.avatar_path).toBe(path));
    await new MutationObserver(queryClient, mutations.profile.removeAvatar()).mutate();
    expect(profile.getCurrentResult().data?.avatar_path).toBeNull();
    expect(queryClient.getQueryState(link.queryKey)?.isInvalidated).toBe(true);
    unsubscribe();
  });

  test("a deck's media file is linked by its name in the deck, and a file that cannot be linked fails at once", async () => {
    const { engram } = await signedIn("query-media");
    const { queryClient, queries } = setup(engram);
    const deck = await engram.decks.create({ name: "Histology" });
    await engram.storage.uploadMedia(deck.id, png, { name: "cell.png" });

    const link = queries.media.url(deck.id, "cell.png");
    expect(link.queryKey).toEqual([...engramKeys.media.all, "url", deck.id, "cell.png"]);
    expect(await fetchBytes(await queryClient.fetchQuery(link))).toEqual(png);

    // No retry: a missing file is reported on the first answer.
    const missing = new QueryObserver(queryClient, queries.media.url(deck.id, "missing.png"));
    const unsubscribe = missing.subscribe(() => {});
    await vi.waitFor(() => expect(missing.getCurrentResult().isError).toBe(true));
    expect(missing.getCurrentResult().failureCount).toBe(1);
    unsubscribe();
  });
});

describe("decks through the React Query factories", () => {
  test("public decks page in as the list scrolls, signed out, until a page comes back short", async () => {
    const { engram } = await signedIn("query-explore");
    const word = `xplr${randomUUID().slice(0, 8)}`;
    for (const name of ["one", "two", "three"]) {
      await engram.decks.create({ name: `${word} ${name}`, is_public: true });
    }
    const visitor = setup(createEngram(supabaseClient()));
    const options = visitor.queries.decks.explorePages({ search: word, sort: "newest" }, 2);
    expect(options.queryKey).toEqual([...engramKeys.decks.explore({ search: word, sort: "newest" }), "pages"]);
    const observer = new InfiniteQueryObserver(visitor.queryClient, options);
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    expect(observer.getCurrentResult().hasNextPage).toBe(true);
    const result = await observer.fetchNextPage();
    expect(result.data?.pages.flat().map((deck) => deck.name)).toEqual([`${word} three`, `${word} two`, `${word} one`]);
    expect(result.hasNextPage).toBe(false);
    unsubscribe();
  });

  test("handing a deck over refreshes the deck list and the members' roles before it settles", async () => {
    const owner = await signedIn("query-owner");
    const deck = await owner.engram.decks.create({ name: "Cardiology" });
    const editor = await join(owner, deck.id, "editor");
    const { queryClient, queries, mutations } = setup(owner.engram);
    const members = new QueryObserver(queryClient, queries.members.list(deck.id));
    const decks = new QueryObserver(queryClient, queries.decks.list());
    const stop = [members.subscribe(() => {}), decks.subscribe(() => {})];
    await vi.waitFor(() =>
      expect(members.getCurrentResult().isSuccess && decks.getCurrentResult().isSuccess).toBe(true),
    );

    await new MutationObserver(queryClient, mutations.decks.transferOwnership()).mutate({
      deckId: deck.id,
      userId: editor.account.id,
    });
    const roles = Object.fromEntries((members.getCurrentResult().data ?? []).map((m) => [m.user_id, m.role]));
    expect(roles).toEqual({ [editor.account.id]: "owner", [owner.account.id]: "editor" });
    expect(decks.getCurrentResult().data?.find((listed) => listed.id === deck.id)?.role).toBe("editor");
    for (const unsubscribe of stop) unsubscribe();
  });
});

describe("named invalidation sets", () => {
  /** One cached query per resource, as the screens would hold them. */
  const cached = [
    engramKeys.auth.user(),
    engramKeys.auth.userAssurance("u"),
    engramKeys.profile.detail(),
    engramKeys.profile.avatarUrl("u/me.png"),
    engramKeys.decks.list(),
    engramKeys.decks.explorePages({}),
    engramKeys.members.list("d"),
    engramKeys.invites.list("d"),
    engramKeys.notes.pages("d", {}),
    engramKeys.cards.schedules({}),
    engramKeys.study.queue({}),
    engramKeys.stats.workload(),
    engramKeys.imports.list(),
    engramKeys.exports.list(),
    engramKeys.media.url("d", "cat.png"),
  ];

  async function invalidatedBy(event: keyof ReturnType<typeof engramInvalidations>) {
    const queryClient = new QueryClient();
    for (const key of cached) queryClient.setQueryData(key, "cached");
    await engramInvalidations(queryClient)[event]();
    return cached.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => key[0]);
  }

  test("an import refreshes decks, notes, cards, what is due, statistics, import jobs and media links", async () => {
    expect(await invalidatedBy("imported")).toEqual([
      "decks",
      "decks",
      "notes",
      "cards",
      "study",
      "stats",
      "imports",
      "media",
    ]);
  });

  test("saved scheduler parameters refresh the profile, what is due and the statistics", async () => {
    expect(await invalidatedBy("parametersSaved")).toEqual(["profile", "profile", "study", "stats"]);
  });

  test("rescheduled cards refresh decks, cards, what is due and the statistics", async () => {
    expect(await invalidatedBy("cardsRescheduled")).toEqual(["decks", "decks", "cards", "study", "stats"]);
  });

  test("each set is the list of keys its invalidation uses", () => {
    expect(engramChanges.parametersSaved()).toEqual([
      engramKeys.profile.all,
      engramKeys.study.all,
      engramKeys.stats.all,
    ]);
  });
});
