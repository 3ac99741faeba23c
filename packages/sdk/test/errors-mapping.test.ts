/**
 * Every error code of docs/product.md §8 the backend can produce today, each reached
 * through real SDK calls against the local stack. (`import/*` come with the
 * import function; `internal` is what an unexpected failure maps to, so no
 * well-behaved call produces it.)
 */
import { fileURLToPath } from "node:url";
import { limits } from "@engram/core";
import { type RunningStack, startStack } from "@engram/local-stack";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { createEngram } from "../src/client.js";
import type { Database } from "../src/database.types.js";
import {
  type EngramError,
  type EngramErrorCode,
  fromAuthError,
  fromChannelError,
  fromSendStatus,
} from "../src/errors.js";
import { errorOf, newAccount, signedIn, supabaseClient, uniqueEmail } from "./support/engram.js";
import { blobOfSize } from "./support/files.js";

async function codeOf(promise: Promise<unknown>): Promise<EngramErrorCode> {
  return (await errorOf(promise)).code;
}

const basic = (front: string) => ({ kind: "basic" as const, fields: { front, back: "back" } });

describe("auth codes", () => {
  test("auth/invalid-credentials: a wrong password", async () => {
    const account = await newAccount();
    const engram = createEngram(supabaseClient());
    expect(await codeOf(engram.auth.signIn({ email: account.email, password: "not-the-password" }))).toBe(
      "auth/invalid-credentials",
    );
  });

  test("auth/email-not-confirmed: signing in before following the confirmation link", async () => {
    const engram = createEngram(supabaseClient());
    const email = uniqueEmail("unconfirmed");
    const { session } = await engram.auth.signUp({ email, password: "correct horse battery" });
    expect(session).toBeNull();
    expect(await codeOf(engram.auth.signIn({ email, password: "correct horse battery" }))).toBe(
      "auth/email-not-confirmed",
    );
  });

  test("auth/user-exists: signing up with a taken email", async () => {
    const account = await newAccount();
    const engram = createEngram(supabaseClient());
    expect(await codeOf(engram.auth.signUp({ email: account.email, password: "another password" }))).toBe(
      "auth/user-exists",
    );
  });

  test("auth/weak-password: the server's rule, mapped; the SDK refuses a short one before sending too", async () => {
    const email = uniqueEmail("weak");
    const { error } = await supabaseClient().auth.signUp({ email, password: "short" });
    expect(error).not.toBeNull();
    expect(fromAuthError(error as NonNullable<typeof error>).code).toBe("auth/weak-password");

    const early = await errorOf(createEngram(supabaseClient()).auth.signUp({ email, password: "short" }));
    expect(early).toMatchObject({ code: "auth/weak-password", field: "password" });
    expect(early.cause).toBeUndefined();
  });

  test("auth/session-expired: another device signed out everywhere", async () => {
    const here = await signedIn("here");
    const elsewhere = createEngram(supabaseClient());
    await elsewhere.auth.signIn({ email: here.account.email, password: here.account.password });
    await elsewhere.auth.signOut({ scope: "global" });
    // This device still holds its session: the server is the one that says it has ended.
    expect(await here.engram.auth.getSession()).not.toBeNull();
    expect(await codeOf(here.engram.auth.updatePassword("a brand new password"))).toBe("auth/session-expired");
    // Signed out here, calls that need a user fail the same way before any request.
    expect(await codeOf(elsewhere.stats.decks())).toBe("auth/session-expired");
  });

  test("auth/link-expired: a PKCE code the server never issued", async () => {
    const supabase = supabaseClient({ auth: { flowType: "pkce" } });
    const engram = createEngram(supabase);
    const account = await newAccount();
    // Stores a code verifier, as the sign-in page does before the link is opened.
    await engram.auth.sendMagicLink({ email: account.email, redirectTo: "http://127.0.0.1:3000/auth/callback" });
    expect(await codeOf(engram.auth.exchangeCode(crypto.randomUUID()))).toBe("auth/link-expired");
  });

  describe("on a stack with Supabase's limits turned low", () => {
    let small: RunningStack;

    beforeAll(async () => {
      small = await startStack({
        supabaseDir: fileURLToPath(new URL("../../../supabase/", import.meta.url)),
        dataDir: null,
        port: 0,
        // Only sign-in attempts are made here: the demo data would be work for nothing.
        seed: false,
        configure: (config) => {
          config.auth.rateLimit = {
            anonymousUsers: 2,
            emailSent: 2,
            signInSignUps: 2,
            tokenRefresh: 2,
            tokenVerifications: 2,
            mfaChallengeAndVerify: 2,
          };
        },
      });
    });

    afterAll(async () => {
      await small?.close();
    });

    test("auth/rate-limited: too many sign-in attempts from one address", async () => {
      const engram = createEngram(
        createClient<Database>(small.url, small.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        }),
      );
      const attempt = () => engram.auth.signIn({ email: "nobody@example.test", password: "wrong password" });
      expect(await codeOf(attempt())).toBe("auth/invalid-credentials");
      expect(await codeOf(attempt())).toBe("auth/invalid-credentials");
      expect(await codeOf(attempt())).toBe("auth/rate-limited");
    });
  });
});

describe("data codes", () => {
  test("permission-denied: a viewer adding a note", async () => {
    const owner = await signedIn("owner");
    const viewer = await signedIn("viewer");
    const deck = await owner.engram.decks.create({ name: "Read only" });
    await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    expect(await codeOf(viewer.engram.notes.create(deck.id, basic("mine")))).toBe("permission-denied");
  });

  test("not-found: a note that does not exist", async () => {
    const { engram } = await signedIn();
    expect(await codeOf(engram.notes.get(crypto.randomUUID()))).toBe("not-found");
  });

  test("validation: a note without a front, with the field and the rule", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "Forms" });
    const error = await errorOf(engram.notes.create(deck.id, basic("   ")));
    expect(error).toMatchObject({ code: "validation", field: "fields.front", rule: "custom" });
    expect(error.message).toBe("The front cannot be empty.");
  });

  test("conflict: a media file uploaded over one of the same name", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "Pictures" });
    const image = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: "image/png" });
    await engram.storage.uploadMedia(deck.id, image, { name: "heart.png" });
    expect(await codeOf(engram.storage.uploadMedia(deck.id, image, { name: "heart.png" }))).toBe("conflict");
  });

  test("quota-exceeded: the 21st active invite, and a file over the size limit", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "Popular" });
    for (let i = 0; i < 20; i++) await engram.invites.create(deck.id, { role: "viewer" });
    expect(await codeOf(engram.invites.create(deck.id, { role: "viewer" }))).toBe("quota-exceeded");

    const big = await blobOfSize(limits.mediaBytes + 1, "image/png");
    expect(await codeOf(engram.storage.uploadMedia(deck.id, big))).toBe("quota-exceeded");
  });

  // Reads are retried (postgrest-js backs off 1 s, 2 s, 4 s) before the error surfaces.
  test("network: a client whose requests never reach the server", async () => {
    const { account } = await signedIn();
    const offline = createEngram(
      supabaseClient({
        global: { fetch: () => Promise.reject(new TypeError("fetch failed")) },
      }),
    );
    expect(await codeOf(offline.auth.signIn({ email: account.email, password: account.password }))).toBe("network");
    expect(await codeOf(offline.notes.get(crypto.randomUUID()))).toBe("network");
    expect(await codeOf(offline.storage.mediaUrl(`${crypto.randomUUID()}/heart.png`))).toBe("network");
  });
});

describe("realtime codes", () => {
  test("permission-denied: a stranger joining a deck's private channel", async () => {
    const owner = await signedIn("owner");
    const stranger = await signedIn("stranger");
    const deck = await owner.engram.decks.create({ name: "Members only" });
    const errors: EngramError[] = [];
    const room = stranger.engram.realtime.joinDeck(deck.id, { activity: "viewing", onError: (e) => errors.push(e) });
    await expect.poll(() => errors.map((error) => error.code)).toEqual(["permission-denied"]);
    await room.leave();
  });

  // What realtime-js hands a subscribe callback: the server's reason as an Error, or nothing when the socket failed.
  test.each([
    [
      "a private channel the policies refuse",
      new Error("Unauthorized: You do not have permissions to read from this Channel topic: deck:1"),
      "permission-denied",
      "You may not join this channel.",
    ],
    [
      "a table the policies refuse",
      "Unauthorized: You do not have permissions to read from this table: public.notes",
      "permission-denied",
      "You may not join this channel.",
    ],
    [
      "a token the server cannot verify",
      new Error("InvalidJWTToken: Fields `role` and `exp` are required in JWT"),
      "auth/session-expired",
      "Sign in again to receive live updates.",
    ],
    [
      "a token that ran out",
      "Token has expired 0 seconds ago",
      "auth/session-expired",
      "Sign in again to receive live updates.",
    ],
    ["a join that timed out", "timed out", "network", "The realtime server could not be reached."],
    ["a socket error with no reason", undefined, "network", "The realtime server could not be reached."],
    ["a closed connection", new Error("connection closed"), "network", "The realtime server could not be reached."],
    ["any other refusal", new Error("Too many channels"), "internal", "The live updates could not be started."],
  ])("fromChannelError: %s", (_, reason, code, message) => {
    const error = fromChannelError(reason);
    expect(error).toMatchObject({ name: "EngramError", code, message });
    expect(error.cause).toBe(reason);
  });

  // What realtime-js resolves channel.send and channel.track with, other than "ok".
  test.each([
    ["timed out", "network", "The realtime server could not be reached.", undefined],
    ["error", "permission-denied", "You may not send to this deck's channel.", "error"],
  ])("fromSendStatus: %s", (status, code, message, detail) => {
    expect(fromSendStatus(status)).toMatchObject({ name: "EngramError", code, message, detail });
  });
});
