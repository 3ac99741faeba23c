import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { createEngram, type Engram } from "../src/client.js";
import { engramQueries, wireRealtime } from "../src/query/index.js";
import type { OwnMembershipEvent, ResyncEvent } from "../src/realtime.js";
import { adminClient, errorOf, type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

/** Realtime delivery on a busy two-core CI can take a while. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

const png = (seed: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seed, seed + 1]);
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** Someone who has not signed in. */
const signedOut = (): Engram => createEngram(supabaseClient());

async function join(owner: SignedIn, deckId: string, role: "editor" | "viewer", prefix: string = role) {
  const member = await signedIn(prefix);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

describe("decks.transferOwnership", () => {
  test("the owner hands the deck to an editor and, now an editor, leaves it", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Cardiology" });
    const editor = await join(owner, deck.id, "editor");

    await owner.engram.decks.transferOwnership(deck.id, editor.account.id);
    const roles = Object.fromEntries((await editor.engram.members.list(deck.id)).map((m) => [m.user_id, m.role]));
    expect(roles).toEqual({ [editor.account.id]: "owner", [owner.account.id]: "editor" });
    expect((await editor.engram.decks.get(deck.id)).owner_id).toBe(editor.account.id);

    await owner.engram.members.leave(deck.id);
    expect((await editor.engram.members.list(deck.id)).map((m) => m.user_id)).toEqual([editor.account.id]);
    expect((await owner.engram.decks.list()).some((d) => d.id === deck.id)).toBe(false);
    // The new owner runs the deck.
    expect((await editor.engram.decks.update(deck.id, { description: "Mine now" })).description).toBe("Mine now");
  });

  test("refuses a non-owner, a non-member and oneself, and changes nothing", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Neurology" });
    const viewer = await join(owner, deck.id, "viewer");
    const outsider = await signedIn("outsider");

    expect(await errorOf(viewer.engram.decks.transferOwnership(deck.id, viewer.account.id))).toMatchObject({
      code: "permission-denied",
    });
    expect(await errorOf(owner.engram.decks.transferOwnership(deck.id, outsider.account.id))).toMatchObject({
      code: "not-found",
      field: "user_id",
    });
    expect(await errorOf(owner.engram.decks.transferOwnership(deck.id, owner.account.id))).toMatchObject({
      code: "validation",
      field: "user_id",
    });
    expect(await errorOf(owner.engram.decks.transferOwnership(deck.id, "not-an-id"))).toMatchObject({
      code: "validation",
    });
    const roles = Object.fromEntries((await owner.engram.members.list(deck.id)).map((m) => [m.user_id, m.role]));
    expect(roles).toEqual({ [owner.account.id]: "owner", [viewer.account.id]: "viewer" });
  });
});

describe("invites.preview", () => {
  test("shows the deck and the state of each kind of invite to someone signed out", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Dermatology", description: "Skin deep" });
    await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Largest organ?", back: "Skin" } });
    const { data: profile } = await owner.supabase.from("profiles").select("display_name").single();

    const active = await owner.engram.invites.create(deck.id, { role: "editor" });
    const revoked = await owner.engram.invites.create(deck.id, { role: "viewer" });
    await owner.engram.invites.revoke(revoked.id);
    const expired = await owner.engram.invites.create(deck.id, { role: "viewer" });
    const { error } = await adminClient()
      .from("deck_invites")
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq("id", expired.id);
    if (error) throw error;
    const usedUp = await owner.engram.invites.create(deck.id, { role: "viewer", max_uses: 1 });
    const joiner = await signedIn("joiner");
    await joiner.engram.invites.accept(usedUp.token);

    const anonymous = signedOut();
    expect(await anonymous.invites.preview(active.token)).toEqual({
      deck_id: deck.id,
      deck_name: "Dermatology",
      description: "Skin deep",
      owner_name: profile?.display_name,
      note_count: 1,
      role: "editor",
      status: "active",
      expires_at: expect.any(String),
      is_member: false,
    });
    expect(new Date((await anonymous.invites.preview(active.token)).expires_at).getTime()).toBe(
      new Date(active.expires_at).getTime(),
    );
    // A link that no longer works names the deck and whom to ask, and nothing of what it holds.
    const dead = await Promise.all([revoked, expired, usedUp].map((invite) => anonymous.invites.preview(invite.token)));
    expect(dead.map((preview) => preview.status)).toEqual(["revoked", "expired", "used_up"]);
    for (const preview of dead) {
      expect(preview).toMatchObject({ deck_id: null, deck_name: "Dermatology", description: null, note_count: null });
    }

    // Signed in, it says whether the user is already in the deck, who still sees it all.
    expect(await joiner.engram.invites.preview(usedUp.token)).toMatchObject({
      deck_id: deck.id,
      description: "Skin deep",
      note_count: 1,
      is_member: true,
    });
    expect((await (await signedIn("visitor")).engram.invites.preview(active.token)).is_member).toBe(false);
  });

  test("an unknown token is not found; an empty one fails validation before any request", async () => {
    expect(await errorOf(signedOut().invites.preview("no-such-token-anywhere"))).toMatchObject({
      code: "not-found",
      field: "token",
    });
    expect((await errorOf(signedOut().invites.preview("  "))).code).toBe("validation");
  });
});

describe("decks.explore", () => {
  test("finds public decks signed out, newest or most cloned first, with counts and the owner's name", async () => {
    const word = `Quokka${Date.now().toString(36)}`;
    const owner = await signedIn("author");
    const older = await owner.engram.decks.create({ name: `${word} basics`, is_public: true });
    const newer = await owner.engram.decks.create({
      name: "Marsupials",
      description: `All about the ${word.toLowerCase()}`,
      is_public: true,
    });
    await owner.engram.decks.create({ name: `${word} private` });
    await owner.engram.notes.create(older.id, { kind: "basic", fields: { front: "Where?", back: "Rottnest" } });
    for (const prefix of ["cloner-a", "cloner-b"]) await (await signedIn(prefix)).engram.decks.clone(older.id);

    const anonymous = signedOut();
    const newest = await anonymous.decks.explore({ search: word.toUpperCase() });
    expect(newest.map((d) => d.id)).toEqual([newer.id, older.id]);
    expect(newest[1]).toMatchObject({ name: `${word} basics`, note_count: 1, clone_count: 2, is_public: true });
    const { data: profile } = await owner.supabase.from("profiles").select("display_name").single();
    expect(newest[1]?.owner_name).toBe(profile?.display_name);

    const mostCloned = await anonymous.decks.explore({ search: word, sort: "most_cloned" });
    expect(mostCloned.map((d) => [d.id, d.clone_count])).toEqual([
      [older.id, 2],
      [newer.id, 0],
    ]);
    expect((await anonymous.decks.explore({ search: word, limit: 1, offset: 1 })).map((d) => d.id)).toEqual([older.id]);
    expect(
      (await errorOf(anonymous.decks.explore({ sort: "oldest" as "newest" }))).code,
      "a sort the SDK does not know fails before any request",
    ).toBe("validation");
  });
});

describe("a copy's source (cloned_from)", () => {
  test("is read by whoever may read the source, and is null for everyone else", async () => {
    const owner = await signedIn("author");
    const source = await owner.engram.decks.create({ name: "Tide tables", is_public: true });
    const copier = await signedIn("copier");
    const copyId = await copier.engram.decks.clone(source.id);
    await copier.engram.decks.update(copyId, { is_public: true });
    expect((await copier.engram.decks.get(copyId)).cloned_from).toBe(source.id);
    expect((await copier.engram.decks.list()).find((d) => d.id === copyId)?.cloned_from).toBe(source.id);

    // The source goes private: only its owner may still see that the copy came from it.
    await owner.engram.decks.update(source.id, { is_public: false });
    const stranger = await signedIn("stranger");
    for (const reader of [stranger.engram, signedOut(), copier.engram]) {
      expect((await reader.decks.get(copyId)).cloned_from).toBeNull();
    }
    expect((await copier.engram.decks.list()).find((d) => d.id === copyId)?.cloned_from).toBeNull();
    const copy = await owner.engram.decks.get(copyId);
    expect(copy).toMatchObject({ id: copyId, name: "Tide tables (copy)", is_public: true, cloned_from: source.id });
    // Every other column reads as before.
    expect(Object.keys(copy).sort()).toEqual(Object.keys(source).sort());
    expect((await copier.engram.decks.update(copyId, { description: "Mine" })).cloned_from).toBeNull();
  });
});

/** A public deck of someone else's whose notes show two images stored in its media folder. */
async function publicDeckWithImages() {
  const owner = await signedIn("author");
  const deck = await owner.engram.decks.create({ name: "Birds", is_public: true });
  await owner.engram.notes.create(deck.id, {
    kind: "basic",
    fields: { front: '<img src="robin.png">', back: '<img src="wren.png"> Wren' },
  });
  const robin = await owner.engram.storage.uploadMedia(deck.id, png(1), { name: "robin.png" });
  const wren = await owner.engram.storage.uploadMedia(deck.id, png(2), { name: "wren.png" });
  return { owner, deck, robin, wren };
}

const cloneCount = async (engram: Engram, deckId: string) => (await engram.decks.get(deckId)).clone_count;

describe("decks.clone with media", () => {
  test("copies the media of a public deck to the copy, readable by the cloner; the source is unchanged", async () => {
    const { owner, deck, robin, wren } = await publicDeckWithImages();
    const cloner = await signedIn("cloner");

    const copyId = await cloner.engram.decks.clone(deck.id);
    const copy = await cloner.engram.decks.get(copyId);
    expect(copy).toMatchObject({ name: "Birds (copy)", owner_id: cloner.account.id, cloned_from: deck.id });
    expect(await bytesOf(await cloner.engram.storage.downloadMedia(`${copyId}/robin.png`))).toEqual(png(1));
    expect(await bytesOf(await cloner.engram.storage.downloadMedia(`${copyId}/wren.png`))).toEqual(png(2));
    const signed = await fetch(await cloner.engram.storage.mediaUrl(`${copyId}/wren.png`));
    expect(new Uint8Array(await signed.arrayBuffer())).toEqual(png(2));
    // The copy's notes name the images as the source's do, so they show.
    const { notes } = await cloner.engram.notes.list(copyId);
    expect(notes[0]?.fields).toEqual({ front: '<img src="robin.png">', back: '<img src="wren.png"> Wren' });

    expect(await bytesOf(await owner.engram.storage.downloadMedia(robin))).toEqual(png(1));
    expect(await bytesOf(await owner.engram.storage.downloadMedia(wren))).toEqual(png(2));
    const { data: sourceFiles } = await adminClient().storage.from("media").list(deck.id);
    expect(sourceFiles?.map((f) => f.name)).toEqual(["robin.png", "wren.png"]);
    expect(await cloneCount(owner.engram, deck.id)).toBe(1);
    // The cloner owns the copied files: they can remove them.
    expect(await cloner.engram.storage.removeMedia(`${copyId}/robin.png`)).toBe(1);
  });

  test("a deck without media clones as before", async () => {
    const owner = await signedIn("author");
    const deck = await owner.engram.decks.create({ name: "Plain", is_public: true });
    const cloner = await signedIn("cloner");
    const copyId = await cloner.engram.decks.clone(deck.id, "My plain");
    expect((await cloner.engram.decks.get(copyId)).name).toBe("My plain");
  });

  test("a copy that fails leaves no deck and no files behind, and the error is thrown", async () => {
    const { owner, deck, wren } = await publicDeckWithImages();
    // A real failure, not a simulated one: the owner deletes wren.png while the
    // clone copies its files. The cloner's fetch only orders the two: each copy
    // request waits until the delete has gone through, so robin.png copies and
    // wren.png's copy finds nothing on the real stack (not-found).
    let copyId: string | undefined;
    let deleted: Promise<unknown> | undefined;
    const copied: boolean[] = [];
    const orderedFetch: typeof fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/storage/v1/object/copy")) {
        const body = JSON.parse(String(init?.body)) as { destinationKey: string };
        copyId = body.destinationKey.split("/")[0];
        deleted ??= owner.engram.storage.removeMedia(wren);
        await deleted;
        const response = await fetch(input, init);
        copied.push(response.ok);
        return response;
      }
      return fetch(input, init);
    };
    const cloner = await signedIn("cloner", { global: { fetch: orderedFetch } });

    const error = await errorOf(cloner.engram.decks.clone(deck.id));
    expect(error.code).toBe("not-found");
    expect(copyId).toBeDefined();
    // One file was copied before the other failed: the cleanup had something to remove.
    expect(copied.sort()).toEqual([false, true]);
    const admin = adminClient();
    const { data: decks } = await admin
      .from("decks")
      .select("id")
      .eq("id", copyId as string);
    expect(decks).toEqual([]);
    const { data: files } = await admin.storage.from("media").list(copyId);
    expect(files).toEqual([]);
    expect((await cloner.engram.decks.list()).length).toBe(0);
    // The source keeps what its owner left in it, and counts no copy.
    const { data: sourceFiles } = await admin.storage.from("media").list(deck.id);
    expect(sourceFiles?.map((f) => f.name)).toEqual(["robin.png"]);
    expect(await cloneCount(owner.engram, deck.id)).toBe(0);
  });
});

/** Collects a subscription's events and tells when it is live. */
function recorder() {
  const events: OwnMembershipEvent[] = [];
  let ready = false;
  return {
    events,
    listener: (event: OwnMembershipEvent | ResyncEvent) => {
      if (event.type !== "resync") events.push(event);
    },
    options: {
      onReady: () => {
        ready = true;
      },
    },
    ready: () =>
      eventually(() => {
        if (!ready) throw new Error("not subscribed yet");
      }),
  };
}

describe("realtime.onOwnMemberships", () => {
  test("hears the user join on another device, their role change and their removal, and nobody else's", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Oncology" });
    const member = await signedIn("member");
    const heard = recorder();
    const stop = member.engram.realtime.onOwnMemberships(heard.listener, heard.options);
    await heard.ready();

    const otherDevice = createEngram(supabaseClient());
    await otherDevice.auth.signIn({ email: member.account.email, password: member.account.password });
    await otherDevice.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    await eventually(() => expect(heard.events).toHaveLength(1));
    expect(heard.events[0]).toEqual({ table: "deck_members", type: "insert", ids: [deck.id] });

    // Someone else joining the same deck is not the user's membership.
    await join(owner, deck.id, "viewer", "classmate");
    await owner.engram.members.setRole(deck.id, member.account.id, "editor");
    await eventually(() => expect(heard.events).toHaveLength(2));
    expect(heard.events[1]).toEqual({ table: "deck_members", type: "update", ids: [deck.id] });

    await owner.engram.members.remove(deck.id, member.account.id);
    await eventually(() => expect(heard.events).toHaveLength(3));
    expect(heard.events[2]).toEqual({ table: "deck_members", type: "delete", ids: [deck.id] });
    await stop();
  });

  test("wireRealtime shows a deck shared with the user and drops it when they are removed, without a reload", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Radiology" });
    const member = await signedIn("member");
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const decks = new QueryObserver(queryClient, engramQueries(member.engram).decks.list());
    const unsubscribe = decks.subscribe(() => {});
    let stop: () => Promise<void> = async () => {};
    await new Promise<void>((resolve, reject) => {
      stop = wireRealtime(member.engram, queryClient, { onReady: resolve, onError: reject });
    });
    await eventually(() => expect(decks.getCurrentResult().data).toEqual([]));

    const otherDevice = createEngram(supabaseClient());
    await otherDevice.auth.signIn({ email: member.account.email, password: member.account.password });
    await otherDevice.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    await eventually(() =>
      expect(decks.getCurrentResult().data?.map((d) => [d.id, d.role])).toEqual([[deck.id, "viewer"]]),
    );

    await owner.engram.members.remove(deck.id, member.account.id);
    await eventually(() => expect(decks.getCurrentResult().data).toEqual([]));
    await stop();
    unsubscribe();
  });
});
