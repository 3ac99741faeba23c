// The buckets and storage policies through the Storage API, as a client meets
// them: on a local stack of this file's own in its default (hosted) behaviour,
// with supabase-js. Storage checks a bucket's types and size on upload; copies
// and moves reach only the policies, which must refuse what the destination
// bucket would not take (schemas/30_storage.sql, `private.fits_bucket`).

import { liftAuthRateLimits, type RunningStack, startStack } from "@engram/local-stack";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { supabaseDir } from "./support/paths.js";

/** A 1×1 PNG. */
const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);
/** A PNG followed by padding up to `bytes`: a picture too large for some buckets. */
const pngOfSize = (bytes: number) => {
  const data = new Uint8Array(bytes);
  data.set(png);
  return data;
};
/** An ID3 header: the start of an MP3. */
const mp3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>';
const mb = 1024 * 1024;

let stack: RunningStack;
let admin: SupabaseClient;

interface User {
  id: string;
  client: SupabaseClient;
  deckId: string;
}

// supabase-js builds its realtime client eagerly and Node 20 has no WebSocket; these tests open none.
class NoRealtime {
  constructor() {
    throw new Error("These tests use no realtime");
  }
}
const transport = ((globalThis as { WebSocket?: unknown }).WebSocket ?? NoRealtime) as never;

function client(key: string): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport },
  });
}

/** A confirmed user, signed in, who owns one deck. */
async function userWithDeck(name: string): Promise<User> {
  const email = `${name}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = "storage-api-test-password";
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error("no user");
  const signedIn = client(stack.anonKey);
  const session = await signedIn.auth.signInWithPassword({ email, password });
  if (session.error) throw session.error;
  const deck = await signedIn
    .from("decks")
    .insert({ name: `${name}'s deck`, owner_id: created.data.user.id })
    .select("id")
    .single();
  if (deck.error) throw deck.error;
  return { id: created.data.user.id, client: signedIn, deckId: (deck.data as { id: string }).id };
}

async function exists(bucket: string, path: string): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  const { data, error } = await admin.storage
    .from(bucket)
    .list(path.slice(0, slash), { search: path.slice(slash + 1) });
  if (error) throw error;
  return data.some((file) => file.name === path.slice(slash + 1));
}

async function uploaded(user: User, bucket: string, path: string, body: Uint8Array | string, contentType: string) {
  const { error } = await user.client.storage.from(bucket).upload(path, body, { contentType });
  if (error) throw error;
}

const unique = (name: string) => `${crypto.randomUUID().slice(0, 8)}-${name}`;

let ada: User;
let ben: User;
beforeAll(async () => {
  stack = await startStack({ supabaseDir, dataDir: null, port: 0, seed: false, configure: liftAuthRateLimits });
  admin = client(stack.serviceRoleKey);
  [ada, ben] = await Promise.all([userWithDeck("ada"), userWithDeck("ben")]);
});
afterAll(() => stack?.close());

describe("no bucket takes SVG", () => {
  test.each([
    ["media", () => `${ada.deckId}/${unique("diagram.svg")}`],
    ["avatars", () => `${ada.id}/${unique("me.svg")}`],
    ["imports", () => `${ada.id}/${unique("deck.svg")}`],
  ])("an SVG declared as image/svg+xml is refused by %s with 415 InvalidMimeType", async (bucket, path) => {
    const name = path();
    const { error } = await ada.client.storage.from(bucket).upload(name, svg, { contentType: "image/svg+xml" });
    expect(error).toMatchObject({ statusCode: "415", message: "mime type image/svg+xml is not supported" });
    expect(await exists(bucket, name)).toBe(false);
  });

  test("not even the service role stores an SVG export", async () => {
    const name = `${ada.id}/${unique("deck.svg")}`;
    const { error } = await admin.storage.from("exports").upload(name, svg, { contentType: "image/svg+xml" });
    expect(error).toMatchObject({ statusCode: "415" });
    expect(await exists("exports", name)).toBe(false);
  });

  test("a PNG is stored and served as the PNG it was declared", async () => {
    const name = `${ada.deckId}/${unique("cell.png")}`;
    await uploaded(ada, "media", name, png, "image/png");
    const { data, error } = await ada.client.storage.from("media").download(name);
    if (error) throw error;
    expect(data.type).toBe("image/png");
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(png);
  });
});

describe("uploads go only where the policies say", () => {
  test.each([
    ["a folder inside a deck's media", () => `${ada.deckId}/images/${unique("a.png")}`],
    ["another user's deck", () => `${ben.deckId}/${unique("a.png")}`],
    ["a hidden file", () => `${ada.deckId}/.${unique("a.png")}`],
  ])("an upload to %s is refused", async (_where, path) => {
    const name = path();
    const { error } = await ada.client.storage.from("media").upload(name, png, { contentType: "image/png" });
    expect(error).toMatchObject({ statusCode: "403", message: "new row violates row-level security policy" });
    expect(await exists("media", name)).toBe(false);
  });
});

describe("a copy must suit the destination as an upload would", () => {
  test("a sound copied from a deck's media into the user's avatars is refused", async () => {
    const source = `${ada.deckId}/${unique("hello.mp3")}`;
    await uploaded(ada, "media", source, mp3, "audio/mpeg");
    const target = `${ada.id}/${unique("hello.png")}`;
    const { error } = await ada.client.storage.from("media").copy(source, target, { destinationBucket: "avatars" });
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await exists("avatars", target)).toBe(false);
  });

  test("a 3 MB picture copied into the avatars (2 MB at most) is refused", async () => {
    const source = `${ada.deckId}/${unique("big.png")}`;
    await uploaded(ada, "media", source, pngOfSize(3 * mb), "image/png");
    const target = `${ada.id}/${unique("big.png")}`;
    const { error } = await ada.client.storage.from("media").copy(source, target, { destinationBucket: "avatars" });
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await exists("avatars", target)).toBe(false);
  });

  test("a copy into a deck the caller does not edit is refused", async () => {
    const source = `${ada.deckId}/${unique("cell.png")}`;
    await uploaded(ada, "media", source, png, "image/png");
    const target = `${ben.deckId}/${unique("cell.png")}`;
    const { error } = await ada.client.storage.from("media").copy(source, target);
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await exists("media", target)).toBe(false);
  });

  test("a copy within the caller's deck is stored", async () => {
    const source = `${ada.deckId}/${unique("cell.png")}`;
    await uploaded(ada, "media", source, png, "image/png");
    const target = `${ada.deckId}/${unique("copy.png")}`;
    const { error } = await ada.client.storage.from("media").copy(source, target);
    expect(error).toBeNull();
    expect(await exists("media", target)).toBe(true);
  });
});

describe("a move must suit the destination as an upload would", () => {
  test("an import (CSV) moved into the deck's media is refused and stays where it was", async () => {
    const source = `${ada.id}/${unique("notes.csv")}`;
    await uploaded(ada, "imports", source, "front,back\n", "text/csv");
    const target = `${ada.deckId}/${unique("notes.png")}`;
    const { error } = await ada.client.storage.from("imports").move(source, target, { destinationBucket: "media" });
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await exists("media", target)).toBe(false);
    expect(await exists("imports", source)).toBe(true);
  });

  test("a picture moved into another user's deck is refused and stays where it was", async () => {
    const source = `${ada.deckId}/${unique("cell.png")}`;
    await uploaded(ada, "media", source, png, "image/png");
    const target = `${ben.deckId}/${unique("cell.png")}`;
    const { error } = await ada.client.storage.from("media").move(source, target);
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await exists("media", target)).toBe(false);
    expect(await exists("media", source)).toBe(true);
  });

  test("a picture renamed within the caller's deck moves", async () => {
    const source = `${ada.deckId}/${unique("cell.png")}`;
    await uploaded(ada, "media", source, png, "image/png");
    const target = `${ada.deckId}/${unique("renamed.png")}`;
    const { error } = await ada.client.storage.from("media").move(source, target);
    expect(error).toBeNull();
    expect(await exists("media", target)).toBe(true);
    expect(await exists("media", source)).toBe(false);
  });
});
