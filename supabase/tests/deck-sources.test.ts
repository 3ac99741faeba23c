import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import { addMember, createDeck, only, type User } from "./support/study-fixtures.js";

// Where a copy came from (decks.cloned_from) may be a private deck: it is
// shown only to whoever may read that deck (docs/product.md §6).

let db: Database;
let olga: User;
let sam: User;
let stranger: User;
/** Olga's deck, public when Sam copied it and private since. */
let source: string;
/** Sam's copy of it, which he made public. */
let copy: string;
/** Olga's own copy of her deck, private. */
let ownCopy: string;

const cloneAs = (actor: User, deckId: string) =>
  actAs(db, actor, (tx) =>
    tx.query<{ id: string }>("select clone_deck($1) as id", [deckId]).then((rows) => only(rows).id),
  );
const sourcesAs = (actor: Actor, ids: string[] | null) =>
  actAs(db, actor, (tx) =>
    tx.query<{ deck_id: string; cloned_from: string | null }>("select * from deck_sources($1)", [ids]),
  );
const exploredSource = (actor: Actor, deckId: string) =>
  actAs(db, actor, (tx) =>
    tx.query<{ id: string; cloned_from: string | null }>("select id, cloned_from from explore_decks('Tidepools')"),
  ).then((rows) => rows.find((row) => row.id === deckId)?.cloned_from);

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, sam, stranger] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
  source = await createDeck(db, olga, { name: "Tidepools", isPublic: true });
  copy = await cloneAs(sam, source);
  await actAs(db, sam, (tx) =>
    tx.query("update decks set is_public = true, name = 'Tidepools again' where id = $1", [copy]),
  );
  await actAs(db, olga, (tx) => tx.query("update decks set is_public = false where id = $1", [source]));
  ownCopy = await cloneAs(olga, source);
});
afterAll(() => db.close());

describe("a copy's source", () => {
  test("is not shown to a stranger reading a public copy of a now private deck", async () => {
    for (const actor of [anon, stranger]) {
      expect(await sourcesAs(actor, [copy])).toEqual([]);
      expect(await exploredSource(actor, copy)).toBeNull();
    }
    // Nor to the copy's owner, who may no longer read it.
    expect(await sourcesAs(sam, [copy])).toEqual([]);
    expect(await sourcesAs(sam, null)).toEqual([]);
  });

  test("is shown to whoever may read the source", async () => {
    expect(await sourcesAs(olga, [copy, ownCopy])).toEqual(
      expect.arrayContaining([
        { deck_id: copy, cloned_from: source },
        { deck_id: ownCopy, cloned_from: source },
      ]),
    );
    expect(await exploredSource(olga, copy)).toBe(source);
    // Without ids: the copies among the decks she belongs to.
    expect(await sourcesAs(olga, null)).toEqual([{ deck_id: ownCopy, cloned_from: source }]);
  });

  test("follows who may read the source: a new member of it sees it", async () => {
    await addMember(db, olga, source, stranger, "viewer");
    expect(await sourcesAs(stranger, [copy])).toEqual([{ deck_id: copy, cloned_from: source }]);
  });

  test("names nothing of a deck the caller cannot read", async () => {
    expect(await sourcesAs(stranger, [ownCopy])).toEqual([]);
  });

  test("is out of the API roles' reach in decks, whose other columns they read by name", async () => {
    for (const actor of [anon, sam] as Actor[]) {
      for (const sql of ["select cloned_from from decks where id = $1", "select * from decks where id = $1"]) {
        const read = await probeAs(db, actor, (tx: Queryable) => tx.query(sql, [copy]));
        expect(read).toMatchObject({ ok: false, error: { code: "42501" } });
      }
      const named = await actAs(db, actor, (tx) =>
        tx.query<{ id: string; name: string; clone_count: number }>(
          "select id, name, clone_count from decks where id = $1",
          [copy],
        ),
      );
      expect(named).toEqual([{ id: copy, name: "Tidepools again", clone_count: 0 }]);
    }
  });
});
