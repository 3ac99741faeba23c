import { randomUUID } from "node:crypto";
import { type Database, type Queryable, setRequestContext } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createUser, openTestDatabase } from "./support/database.js";
import { insertObject } from "./support/fixtures.js";
import {
  addBasicCards,
  createDeck,
  failure,
  only,
  recordReview,
  stateOf,
  type User,
} from "./support/study-fixtures.js";

// Two-factor sign-in (docs/product.md §1): once a user has verified an authenticator
// app, the database answers them only when their token is aal2. Users without
// a factor, or with an enrolment they never finished, are not affected.

let db: Database;
let guarded: User; // a verified factor
let plain: User; // no factor
let unfinished: User; // an unverified factor only
let guardedDeck: string;
let guardedCard: string;
let plainDeck: string;
let plainCard: string;

async function addFactor(user: User, status: "verified" | "unverified") {
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, 'totp', $4, now(), now(), 'JBSWY3DPEHPK3PXP')`,
    [randomUUID(), user.id, `Phone ${status}`, status],
  );
}

/** Runs `fn` as `user` with a token of the given level, as PostgREST would, and rolls back. */
async function as<T>(user: User, aal: "aal1" | "aal2", fn: (tx: Queryable) => Promise<T>): Promise<T> {
  class Rollback extends Error {
    constructor(readonly value: T) {
      super("rollback");
    }
  }
  try {
    await db.transaction(async (tx) => {
      await setRequestContext(tx, {
        role: "authenticated",
        claims: {
          sub: user.id,
          role: "authenticated",
          aud: "authenticated",
          email: user.email,
          aal,
          amr: aal === "aal2" ? [{ method: "totp" }, { method: "password" }] : [{ method: "password" }],
          session_id: user.sessionId,
          is_anonymous: false,
        },
      });
      throw new Rollback(await fn(tx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value;
    throw error;
  }
  throw new Error("unreachable");
}

const visibleDecks = (tx: Queryable) => tx.query<{ id: string }>("select id from decks order by name");
const ownDecks = (tx: Queryable) =>
  tx.query<{ id: string }>(
    "select d.id from decks d join deck_members m on m.deck_id = d.id and m.user_id = auth.uid() order by d.name",
  );
const ownProfile = (tx: Queryable) => tx.query<{ id: string }>("select id from profiles where id = auth.uid()");

beforeAll(async () => {
  db = await openTestDatabase();
  [guarded, plain, unfinished] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
  guardedDeck = await createDeck(db, guarded, { name: "Guarded" });
  [guardedCard] = (await addBasicCards(db, guarded, guardedDeck, 1, "Secret")) as [string];
  plainDeck = await createDeck(db, plain, { name: "Plain" });
  [plainCard] = (await addBasicCards(db, plain, plainDeck, 1, "Open")) as [string];
  await createDeck(db, unfinished, { name: "Unfinished" });
  await addFactor(guarded, "verified");
  await addFactor(unfinished, "unverified");
});
afterAll(() => db.close());

describe("a user with a verified factor, signed in with the password only (aal1)", () => {
  test("reads nothing: their decks or public ones, cards, their own profile", async () => {
    await as(guarded, "aal1", async (tx) => {
      expect(await visibleDecks(tx)).toEqual([]);
      expect(await ownProfile(tx)).toEqual([]);
      expect(await tx.query("select id from cards where deck_id = $1", [guardedDeck])).toEqual([]);
      expect(await tx.query("select card_id from card_states")).toEqual([]);
    });
  });

  test("cannot write: a new deck is refused, updates and deletes change nothing", async () => {
    const refused = await failure(as(guarded, "aal1", (tx) => tx.query("insert into decks (name) values ('Sneaky')")));
    expect(refused).toMatchObject({ code: "42501" });
    await as(guarded, "aal1", async (tx) => {
      expect(await tx.query("update decks set name = 'Renamed' where id = $1 returning id", [guardedDeck])).toEqual([]);
      expect(await tx.query("update profiles set display_name = 'X' where id = auth.uid() returning id")).toEqual([]);
      expect(await tx.query("delete from decks where id = $1 returning id", [guardedDeck])).toEqual([]);
    });
    const [deck] = await db.query<{ name: string }>("select name from public.decks where id = $1", [guardedDeck]);
    expect(deck?.name).toBe("Guarded");
  });

  test("RPCs refuse with 42501 and say why: the queue, answers, stats", async () => {
    const message = /two-factor sign-in required/;
    const calls: ((tx: Queryable) => Promise<unknown>)[] = [
      (tx: Queryable) => tx.query("select * from study_queue()"),
      (tx: Queryable) => tx.query("select * from deck_stats()"),
      (tx: Queryable) => tx.query("select user_stats()"),
      (tx: Queryable) => recordReview(tx, { cardId: guardedCard, expectedVersion: 0 }),
    ];
    for (const call of calls) {
      const error = await failure(as(guarded, "aal1", call));
      expect(error).toMatchObject({ code: "42501" });
      expect(error.message).toMatch(message);
    }
    expect((await stateOf(db, guarded.id, guardedCard))?.reps).toBe(0);
  });

  test("a dead invite to their own deck shows them what it shows a stranger", async () => {
    const [invite] = await db.query<{ token: string }>(
      `insert into public.deck_invites (deck_id, created_by, revoked_at) values ($1, $2, now()) returning token`,
      [guardedDeck, guarded.id],
    );
    const preview = (aal: "aal1" | "aal2") =>
      as(guarded, aal, (tx) =>
        tx.query<Record<string, unknown>>(
          "select deck_id, deck_name, description, note_count, status, is_member from invite_preview($1)",
          [invite?.token],
        ),
      );
    expect(await preview("aal1")).toEqual([
      { deck_id: null, deck_name: "Guarded", description: null, note_count: null, status: "revoked", is_member: false },
    ]);
    expect(await preview("aal2")).toEqual([
      expect.objectContaining({ deck_id: guardedDeck, note_count: 1, status: "revoked", is_member: true }),
    ]);
  });
});

describe("files and channels of a user with a verified factor", () => {
  test("Storage: their files are hidden and uploads refused at aal1, not at aal2", async () => {
    const name = `${guarded.id}/deck.apkg`;
    await insertObject(db, "imports", name, guarded.id);
    const files = (tx: Queryable) => tx.query("select name from storage.objects where bucket_id = 'imports'");
    expect(await as(guarded, "aal1", files)).toEqual([]);
    expect(await as(guarded, "aal2", files)).toEqual([{ name }]);
    const upload = (tx: Queryable) => insertObject(tx, "imports", `${guarded.id}/other.apkg`, guarded.id);
    expect(await failure(as(guarded, "aal1", upload))).toMatchObject({ code: "42501" });
    await as(guarded, "aal2", upload);
  });

  test("Realtime: the private channels carry the same restrictive policy", async () => {
    const policies = await db.query<{ table: string }>(
      `select c.oid::regclass::text as table from pg_policy p join pg_class c on c.oid = p.polrelid
       where p.polname = 'two-factor sessions only' and not p.polpermissive
         and c.relnamespace in ('storage'::regnamespace, 'realtime'::regnamespace) order by 1`,
    );
    expect(policies.map((row) => row.table)).toEqual(["realtime.messages", "storage.objects"]);
  });
});

describe("the same user after entering the code (aal2)", () => {
  test("reads, writes and calls RPCs as before", async () => {
    await as(guarded, "aal2", async (tx) => {
      expect(await ownDecks(tx)).toEqual([{ id: guardedDeck }]);
      expect(await ownProfile(tx)).toEqual([{ id: guarded.id }]);
      const queue = await tx.query<{ card_id: string }>("select card_id from study_queue()");
      expect(queue.map((row) => row.card_id)).toEqual([guardedCard]);
      expect(only(await tx.query<{ deck_id: string }>("select deck_id from deck_stats()")).deck_id).toBe(guardedDeck);
      expect((await recordReview(tx, { cardId: guardedCard, expectedVersion: 0 })).reps).toBe(1);
      expect(await tx.query("insert into decks (name) values ('Another') returning name")).toEqual([
        { name: "Another" },
      ]);
    });
  });
});

describe("users without a verified factor", () => {
  test("work at aal1: no factor at all", async () => {
    await as(plain, "aal1", async (tx) => {
      expect(await ownDecks(tx)).toEqual([{ id: plainDeck }]);
      const queue = await tx.query<{ card_id: string }>("select card_id from study_queue()");
      expect(queue.map((row) => row.card_id)).toEqual([plainCard]);
      expect((await recordReview(tx, { cardId: plainCard, expectedVersion: 0 })).reps).toBe(1);
    });
  });

  test("work at aal1: an enrolment never verified does not count", async () => {
    await as(unfinished, "aal1", async (tx) => {
      expect((await ownDecks(tx)).length).toBe(1);
      expect(await tx.query("insert into decks (name) values ('More') returning name")).toEqual([{ name: "More" }]);
    });
  });
});

describe("the check itself", () => {
  test("every table in public has the restrictive policy, and it runs once per statement", async () => {
    const missing = await db.query<{ relname: string }>(
      `select c.relname from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relrowsecurity
         and not exists (select 1 from pg_policy p where p.polrelid = c.oid and not p.polpermissive
                           and p.polname = 'two-factor sessions only')`,
    );
    expect(missing).toEqual([]);
    const plan = await as(plain, "aal1", (tx) =>
      tx.query<{ "QUERY PLAN": string }>("explain (verbose) select * from card_states"),
    );
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/InitPlan/);
    expect(text).toMatch(/aal_satisfied/);
  });

  test("the helpers stay out of the API: PostgREST cannot call the unchecked queue", async () => {
    const refused = await failure(
      as(plain, "aal1", (tx) => tx.query("select * from private.study_queue_for_caller(null, null)")),
    );
    expect(refused).toMatchObject({ code: "42501" });
  });
});
