import type { Database } from "@engram/local-stack";
import { channelPermissions } from "@engram/local-stack";
import { afterAll, beforeAll, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { addMember, createDeck, type User } from "./support/study-fixtures.js";

// Deck rooms (docs/product.md §7): presence and "being edited" broadcasts on the private
// topic deck:<id>. Realtime authorises a private channel with the policies on
// realtime.messages (SELECT = may receive, INSERT = may send), checked here the
// way the server checks them.

let db: Database;
let owner: User;
let viewer: User;
let stranger: User;
let deck: string;
let publicDeck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [owner, viewer, stranger] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
  deck = await createDeck(db, owner, { name: "Histology" });
  publicDeck = await createDeck(db, owner, { name: "Open anatomy", isPublic: true });
  await addMember(db, owner, deck, viewer, "viewer");
});
afterAll(() => db?.close());

const userClaims = (user: User) => ({ sub: user.id, role: "authenticated", aud: "authenticated", email: user.email });
const permissionsOf = (user: User, topic: string) => channelPermissions(db, topic, "authenticated", userClaims(user));
const all = { readBroadcast: true, readPresence: true, writeBroadcast: true, writePresence: true };
const none = { readBroadcast: false, readPresence: false, writeBroadcast: false, writePresence: false };

test("every member of a deck, viewers included, may receive and send in its room", async () => {
  expect(await permissionsOf(owner, `deck:${deck}`)).toEqual(all);
  expect(await permissionsOf(viewer, `deck:${deck}`)).toEqual(all);
});

test("someone who is not a member may not join a deck's room, even a public deck's", async () => {
  expect(await permissionsOf(stranger, `deck:${deck}`)).toEqual(none);
  expect(await permissionsOf(stranger, `deck:${publicDeck}`)).toEqual(none);
});

test("anonymous visitors and malformed or unknown topics get nothing", async () => {
  expect(await channelPermissions(db, `deck:${deck}`, "anon", { role: "anon" })).toEqual(none);
  for (const topic of [
    `deck:${deck.toUpperCase()}x`,
    "deck:not-a-uuid",
    `room:${deck}`,
    "deck:",
    `deck:${crypto.randomUUID()}`,
  ]) {
    expect(await permissionsOf(owner, topic)).toEqual(none);
  }
});

// The user's own channel `user:<id>`: where a device that signs out everywhere
// tells the user's other devices (apps/web/src/session/session-watch.ts).
const broadcastOnly = { readBroadcast: true, readPresence: false, writeBroadcast: true, writePresence: false };

test("a user may receive and send broadcasts on their own channel, without presence", async () => {
  expect(await permissionsOf(owner, `user:${owner.id}`)).toEqual(broadcastOnly);
  expect(await permissionsOf(stranger, `user:${stranger.id}`)).toEqual(broadcastOnly);
});

test("nobody may join another user's channel, co-members and anonymous visitors included", async () => {
  expect(await permissionsOf(viewer, `user:${owner.id}`)).toEqual(none);
  expect(await permissionsOf(stranger, `user:${owner.id}`)).toEqual(none);
  expect(await channelPermissions(db, `user:${owner.id}`, "anon", { role: "anon" })).toEqual(none);
  for (const topic of [`user:${owner.id.toUpperCase()}`, `user:${owner.id}x`, "user:", `users:${owner.id}`]) {
    expect(await permissionsOf(owner, topic)).toEqual(none);
  }
});

// Who may join the topics the database's change messages go to (realtime-messages.test.ts):
// Realtime asks these policies at join and at each token refresh.
test("a member removed from a deck may no longer join its topic, from their next join or token refresh", async () => {
  const leaving = await createUser(db);
  await addMember(db, owner, deck, leaving, "editor");
  expect(await permissionsOf(leaving, `deck:${deck}`)).toEqual(all);

  await actAs(db, owner, (tx) =>
    tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, leaving.id]),
  );

  expect(await permissionsOf(leaving, `deck:${deck}`)).toEqual(none);
  // Their own topic, where their removal was told, stays theirs.
  expect(await permissionsOf(leaving, `user:${leaving.id}`)).toEqual(broadcastOnly);
});
