import { randomUUID } from "node:crypto";
import { channelPermissions, type Database, type Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anon, createUser, openTestDatabase, probeAs, service } from "./support/database.js";
import { insertObject } from "./support/fixtures.js";
import { addBasicCards, createDeck, type User } from "./support/study-fixtures.js";

// A user's token names their session (`session_id`); GoTrue deletes the
// session on sign-out ("sign out of all devices": every session of the user).
// The database answers a token only while its session exists, so a copy of
// an access token stops working when the session ends, not when it expires.

let db: Database;
let user: User;
let deck: string;
const mediaPath = () => `${deck}/femur.png`;

/** A new session for `user`, as GoTrue makes one at sign-in. */
async function newSession(owner: User, notAfter: Date | null = null): Promise<string> {
  const id = randomUUID();
  await db.query(
    "insert into auth.sessions (id, user_id, created_at, updated_at, aal, not_after) values ($1, $2, now(), now(), 'aal1', $3)",
    [id, owner.id, notAfter],
  );
  return id;
}

/** `user` acting with a token that names `sessionId`. */
const holding = (owner: User, sessionId: string): User => ({ ...owner, sessionId });

const decks = (tx: Queryable) => tx.query<{ id: string }>("select id from decks");
/** The caller's own decks (the seed's public deck is everyone's to read). */
const ownDecks = (tx: Queryable) => tx.query<{ id: string }>("select id from decks where owner_id = auth.uid()");
const ownFiles = (tx: Queryable) => tx.query<{ name: string }>("select name from storage.objects");

beforeAll(async () => {
  db = await openTestDatabase();
  user = await createUser(db);
  deck = await createDeck(db, user, { name: "Anatomy" });
  await addBasicCards(db, user, deck, 1, "Bone");
  await insertObject(db, "media", mediaPath(), user.id);
});
afterAll(() => db?.close());

describe("a token whose session has ended", () => {
  let ended: User;
  beforeAll(async () => {
    ended = holding(user, await newSession(user));
    expect(await probeAs(db, ended, ownDecks)).toEqual({ ok: true, value: [{ id: deck }] });
    await db.query("delete from auth.sessions where id = $1", [ended.sessionId]);
  });

  test("reads no row, not even the user's own profile", async () => {
    expect(await probeAs(db, ended, decks)).toEqual({ ok: true, value: [] });
    expect(await probeAs(db, ended, (tx) => tx.query("select id from profiles"))).toEqual({ ok: true, value: [] });
    expect(await probeAs(db, ended, (tx) => tx.query("select card_id from card_states"))).toEqual({
      ok: true,
      value: [],
    });
  });

  test("writes nothing: an insert is refused, an update or delete finds no row", async () => {
    const insert = await probeAs(db, ended, (tx) => tx.query("insert into decks (name) values ('Planted')"));
    expect(insert).toMatchObject({ ok: false, error: { code: "42501" } });
    const update = await probeAs(db, ended, (tx) =>
      tx.query("update decks set name = 'Renamed' where id = $1 returning id", [deck]),
    );
    expect(update).toEqual({ ok: true, value: [] });
    const remove = await probeAs(db, ended, (tx) => tx.query("delete from decks where id = $1 returning id", [deck]));
    expect(remove).toEqual({ ok: true, value: [] });
  });

  test("calls no RPC: each refuses with 42501 and says the session ended", async () => {
    for (const sql of [
      "select * from create_invite($1, 'viewer')",
      "select user_stats($1)",
      "select * from review_stats(p_days => 30)",
    ]) {
      const call = await probeAs(db, ended, (tx) => tx.query(sql, sql.includes("$1") ? [deck] : []));
      expect(call).toMatchObject({ ok: false, error: { code: "42501", message: "session ended: sign in again" } });
    }
    // The study queue and the deck list refuse as they refuse a session that owes its second factor.
    for (const sql of ["select * from study_queue()", "select * from deck_stats()"]) {
      expect(await probeAs(db, ended, (tx) => tx.query(sql))).toMatchObject({ ok: false, error: { code: "42501" } });
    }
  });

  test("sees no file and uploads none: Storage signs and serves only what SELECT shows", async () => {
    expect(await probeAs(db, holding(user, user.sessionId), ownFiles)).toEqual({
      ok: true,
      value: [{ name: mediaPath() }],
    });
    expect(await probeAs(db, ended, ownFiles)).toEqual({ ok: true, value: [] });
    const upload = await probeAs(db, ended, (tx) => insertObject(tx, "media", `${deck}/planted.png`, user.id));
    expect(upload).toMatchObject({ ok: false, error: { code: "42501" } });
  });

  test("joins no private Realtime channel", async () => {
    const claims = (sessionId: string) => ({
      sub: user.id,
      role: "authenticated",
      aud: "authenticated",
      aal: "aal1",
      session_id: sessionId,
    });
    const join = (sessionId: string, topic: string) =>
      channelPermissions(db, topic, "authenticated", claims(sessionId));
    expect(await join(user.sessionId, `deck:${deck}`)).toMatchObject({ readBroadcast: true, writeBroadcast: true });
    expect(await join(user.sessionId, `user:${user.id}`)).toMatchObject({ readBroadcast: true });
    const none = { readBroadcast: false, readPresence: false, writeBroadcast: false, writePresence: false };
    expect(await join(ended.sessionId, `deck:${deck}`)).toEqual(none);
    expect(await join(ended.sessionId, `user:${user.id}`)).toEqual(none);
  });
});

describe("which sessions count", () => {
  test("the user's other sessions keep working when one ends", async () => {
    const phone = await newSession(user);
    const laptop = await newSession(user);
    await db.query("delete from auth.sessions where id = $1", [phone]);
    expect(await probeAs(db, holding(user, laptop), ownDecks)).toEqual({ ok: true, value: [{ id: deck }] });
  });

  test("a session past its not_after has ended, though its row is still there", async () => {
    const expired = await newSession(user, new Date(Date.now() - 60_000));
    expect(await probeAs(db, holding(user, expired), decks)).toEqual({ ok: true, value: [] });
    const later = await newSession(user, new Date(Date.now() + 3_600_000));
    expect(await probeAs(db, holding(user, later), ownDecks)).toEqual({ ok: true, value: [{ id: deck }] });
  });

  test("a token naming someone else's session, or no session that parses, gets nothing", async () => {
    const other = await createUser(db);
    expect(await probeAs(db, holding(user, other.sessionId), decks)).toEqual({ ok: true, value: [] });
    expect(await probeAs(db, holding(user, "not-a-session"), decks)).toEqual({ ok: true, value: [] });
  });

  test("anon and service_role name no session and are answered as before", async () => {
    const publicDeck = await createDeck(db, user, { name: "Open", isPublic: true });
    const anonDecks = await probeAs(db, anon, decks);
    expect(anonDecks.ok && anonDecks.value.map((row) => row.id)).toContain(publicDeck);
    const serviceDecks = await probeAs(db, service, decks);
    expect(serviceDecks.ok && serviceDecks.value.map((row) => row.id)).toEqual(
      expect.arrayContaining([deck, publicDeck]),
    );
  });
});

test("the check runs once per statement (an initplan), not once per row", async () => {
  const plan = await probeAs(db, user, (tx) =>
    tx.query<{ "QUERY PLAN": string }>("explain (verbose, costs off) select * from card_states"),
  );
  if (!plan.ok) throw plan.error;
  const lines = plan.value.map((row) => row["QUERY PLAN"]);
  expect(lines.some((line) => /InitPlan/.test(line))).toBe(true);
  expect(lines.some((line) => /Output: private\.aal_satisfied\(\)/.test(line))).toBe(true);
  expect(lines.filter((line) => /Filter:.*private\.aal_satisfied\(\)/.test(line))).toEqual([]);
});
