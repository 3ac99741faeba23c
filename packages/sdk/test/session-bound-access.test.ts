import { beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { createEngramClient } from "../src/engram-client.js";
import { signedUrlExpiresAt } from "../src/storage/signed-url-expiry.js";
import { type SignedIn, signedIn, stack } from "./support/engram.js";

// An access token is signed once and verified by signature only, so a copy
// of it would work until it expires. The database also requires its session
// to exist, so "sign out of all devices" ends every copy at once.

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** A JWT's `exp`, in seconds. */
const expiryOf = (jwt: string): number =>
  (JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as { exp: number }).exp;

async function accessTokenOf({ supabase }: SignedIn): Promise<string> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) throw new Error("not signed in");
  return data.session.access_token;
}

/** supabase-js carrying a copied token, as someone who took it would use it. */
async function holderOf(token: string) {
  const supabase = createEngramClient({
    url: stack().url,
    key: stack().anonKey,
    webSocket: WebSocket as never,
    accessToken: async () => token,
  });
  // Realtime receives the token asynchronously; a join sent before it arrives goes as anonymous.
  await supabase.realtime.setAuth();
  return supabase;
}

async function joinPrivate(supabase: Awaited<ReturnType<typeof holderOf>>, topic: string): Promise<string> {
  const status = await new Promise<string>((resolve) => {
    supabase.channel(topic, { config: { private: true } }).subscribe((state) => {
      if (state !== "CLOSED") resolve(state);
    });
  });
  await supabase.removeAllChannels();
  return status;
}

describe("a copied access token after the user signs out of all devices", () => {
  let user: SignedIn;
  let deckId: string;
  let mediaPath: string;
  beforeAll(async () => {
    user = await signedIn("stolen");
    deckId = (await user.engram.decks.create({ name: "Anatomy" })).id;
    await user.engram.notes.create(deckId, { kind: "basic", fields: { front: "femur", back: "thigh bone" } });
    mediaPath = await user.engram.storage.uploadMedia(deckId, png, { name: "femur.png" });
  });

  test("gets nothing from REST, RPCs, Storage or a private Realtime channel", async () => {
    const token = await accessTokenOf(user);
    const holder = await holderOf(token);
    const userTopic = `user:${user.account.id}`;

    // Before: the copy works as the user.
    expect((await holder.from("decks").select("id").eq("owner_id", user.account.id)).data).toEqual([{ id: deckId }]);
    expect((await holder.rpc("study_queue", {})).data).toHaveLength(1);
    expect((await holder.storage.from("media").download(mediaPath)).error).toBeNull();
    expect((await holder.storage.from("media").createSignedUrl(mediaPath, 60)).error).toBeNull();
    expect(await joinPrivate(holder, userTopic)).toBe("SUBSCRIBED");

    await user.engram.auth.signOut({ scope: "global" });

    // After: the token is as young as before, and its signature as good.
    expect(expiryOf(token)).toBeGreaterThan(Date.now() / 1000 + 60);
    // Not even the public decks anyone may read: the token is refused, not taken for a visitor.
    const rows = await holder.from("decks").select("id");
    expect(rows).toMatchObject({ data: [], error: null });
    const written = await holder.from("decks").insert({ name: "Planted" }).select("id");
    expect(written.error).toMatchObject({ code: "42501" });
    const queue = await holder.rpc("study_queue", {});
    expect(queue.error).toMatchObject({ code: "42501" });
    const stats = await holder.rpc("user_stats", {});
    expect(stats.error).toMatchObject({ code: "42501", message: "session ended: sign in again" });
    expect((await holder.storage.from("media").download(mediaPath)).data).toBeNull();
    expect((await holder.storage.from("media").createSignedUrl(mediaPath, 7 * 24 * 3600)).data).toBeNull();
    expect(await joinPrivate(holder, userTopic)).toBe("CHANNEL_ERROR");
  });
});

describe("signed links", () => {
  test("last no longer than the access token they are made with", async () => {
    const user = await signedIn("links");
    const deckId = (await user.engram.decks.create({ name: "Links" })).id;
    const path = await user.engram.storage.uploadMedia(deckId, png, { name: "link.png" });
    const tokenExpiry = expiryOf(await accessTokenOf(user)) * 1000;

    const week = 7 * 24 * 3600;
    const links = [
      await user.engram.storage.mediaUrl(path, { expiresIn: week }),
      await user.engram.storage.mediaUrl(path),
    ];
    for (const link of links) {
      const linkExpiry = signedUrlExpiresAt(link) ?? Number.POSITIVE_INFINITY;
      expect(linkExpiry).toBeLessThanOrEqual(tokenExpiry);
      expect(linkExpiry).toBeGreaterThan(Date.now());
      expect((await fetch(link)).status).toBe(200);
    }
  });

  test("ask for less than the token has left and get what was asked", async () => {
    const user = await signedIn("short-link");
    const deckId = (await user.engram.decks.create({ name: "Short" })).id;
    const path = await user.engram.storage.uploadMedia(deckId, png, { name: "short.png" });
    const before = Date.now();
    const link = await user.engram.storage.mediaUrl(path, { expiresIn: 60 });
    const lifetime = ((signedUrlExpiresAt(link) ?? 0) - before) / 1000;
    expect(lifetime).toBeGreaterThan(58);
    expect(lifetime).toBeLessThanOrEqual(61);
  });
});
