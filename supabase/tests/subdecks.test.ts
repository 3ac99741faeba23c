import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  createDeck,
  type DeckOptions,
  failure,
  only,
  recordReview,
  type User,
} from "./support/study-fixtures.js";

// Subdecks (docs/product.md, decks): decks.parent_id makes a tree of one
// owner, without loops and at most 10 deep; a new subdeck starts with its
// parent's members; studying a deck studies its subdecks within each one's
// limits, the deck studied capping the sum; deck_stats rolls the tree up;
// an import can bring a package's deck tree; a deck moved or copied keeps
// its notes' note types.

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

const NOW = "2026-01-15T15:00:00Z";

async function subdeck(owner: User, parentId: string, options: DeckOptions = {}): Promise<string> {
  const rows = await actAs(db, owner, (tx) =>
    tx.query<{ id: string }>(
      "insert into decks (name, parent_id, new_per_day, reviews_per_day) values ($1, $2, $3, $4) returning id",
      [options.name ?? "Sub", parentId, options.newPerDay ?? null, options.reviewsPerDay ?? null],
    ),
  );
  return only(rows, "deck").id;
}

const setParent = (user: User, deckId: string, parentId: string | null) =>
  actAs(db, user, (tx) => tx.query("select set_deck_parent($1, $2)", [deckId, parentId]));

const parentOf = async (deckId: string) =>
  only(await db.query<{ parent_id: string | null }>("select parent_id from decks where id = $1", [deckId])).parent_id;

describe("the tree", () => {
  let ana: User;
  let ben: User;
  beforeAll(async () => {
    ana = await createUser(db);
    ben = await createUser(db);
  });

  test("a deck cannot go under itself or one of its subdecks, and the refusal changes nothing", async () => {
    const top = await createDeck(db, ana, { name: "Top" });
    const middle = await subdeck(ana, top, { name: "Middle" });
    const bottom = await subdeck(ana, middle, { name: "Bottom" });
    for (const target of [top, middle, bottom]) {
      const error = await failure(setParent(ana, top, target));
      expect(error.code).toBe("22023");
      expect(error.message).toBe("a deck cannot go inside itself or one of its subdecks");
      expect(error.detail).toBe("parent_id");
    }
    // The same through a plain update, as the REST API gives it.
    const error = await failure(
      actAs(db, ana, (tx) => tx.query("update decks set parent_id = $1 where id = $2", [bottom, middle])),
    );
    expect(error.code).toBe("22023");
    expect(await parentOf(top)).toBeNull();
    expect(await parentOf(middle)).toBe(top);
    // Moving to the top level and back is fine.
    await setParent(ana, bottom, null);
    expect(await parentOf(bottom)).toBeNull();
    await setParent(ana, bottom, top);
    expect(await parentOf(bottom)).toBe(top);
  });

  test("a tree is at most 10 decks deep, counting the subdecks of a deck being moved", async () => {
    const chain = [await createDeck(db, ana, { name: "Level 1" })];
    for (let level = 2; level <= 10; level += 1) {
      chain.push(await subdeck(ana, chain.at(-1) as string, { name: `Level ${level}` }));
    }
    const tooDeep = await failure(subdeck(ana, chain[9] as string, { name: "Level 11" }));
    expect(tooDeep.code).toBe("22023");
    expect(tooDeep.message).toBe("decks nest at most 10 levels deep");

    // A deck with one subdeck (2 levels) fits under level 8, not under level 9.
    const pair = await createDeck(db, ana, { name: "Pair" });
    await subdeck(ana, pair, { name: "Pair child" });
    expect((await failure(setParent(ana, pair, chain[8] as string))).message).toBe("decks nest at most 10 levels deep");
    expect(await parentOf(pair)).toBeNull();
    await setParent(ana, pair, chain[7] as string);
    expect(await parentOf(pair)).toBe(chain[7]);
  });

  test("only the owner of both decks adds or moves subdecks; members of the parent get the new subdeck", async () => {
    const shared = await createDeck(db, ana, { name: "Shared" });
    await addMember(db, ana, shared, ben, "editor");

    // Ben, an editor, may not add a subdeck to Ana's deck, nor move his own deck under it.
    const refused = await failure(subdeck(ben, shared, { name: "Ben's" }));
    expect(refused.code).toBe("42501");
    const bens = await createDeck(db, ben, { name: "Ben's own" });
    expect((await failure(setParent(ben, bens, shared))).code).toBe("42501");
    // Ana may not move Ben's deck.
    expect((await failure(setParent(ana, bens, shared))).code).toBe("PT404");

    // Ana's subdeck starts with Ben as an editor, and he reads it.
    const child = await subdeck(ana, shared, { name: "Verbs" });
    const seen = await actAs(db, ben, (tx) =>
      tx.query<{ name: string; parent_id: string; role: string }>(
        `select d.name, d.parent_id, m.role from decks d join deck_members m on m.deck_id = d.id and m.user_id = $1
         where d.id = $2`,
        [ben.id, child],
      ),
    );
    expect(seen).toEqual([{ name: "Verbs", parent_id: shared, role: "editor" }]);

    // A stranger reads neither.
    const carl = await createUser(db);
    const strangers = await actAs(db, carl, (tx) =>
      tx.query("select id from decks where id in ($1, $2)", [shared, child]),
    );
    expect(strangers).toEqual([]);
  });

  test("deleting a deck deletes its subdecks; handing a subdeck over takes it out of the tree", async () => {
    const top = await createDeck(db, ana, { name: "Gone" });
    const child = await subdeck(ana, top, { name: "Gone child" });
    const grandchild = await subdeck(ana, child, { name: "Gone grandchild" });
    const kept = await subdeck(ana, top, { name: "Handed over" });
    await addMember(db, ana, kept, ben, "editor");
    await actAs(db, ana, (tx) => tx.query("select transfer_deck_ownership($1, $2)", [kept, ben.id]));
    expect(await parentOf(kept)).toBeNull();

    await actAs(db, ana, (tx) => tx.query("delete from decks where id = $1", [top]));
    const left = await db.query<{ id: string }>("select id from decks where id = any($1::uuid[])", [
      [top, child, grandchild, kept],
    ]);
    expect(left.map((row) => row.id)).toEqual([kept]);
  });
});

interface QueueRow {
  queue: string;
  card_id: string;
  deck_id: string;
}

const queueOf = (user: User, deckId: string | null) =>
  actAs(db, user, (tx) =>
    tx.query<QueueRow>("select queue, card_id, deck_id from study_queue(p_deck_id => $1, p_now => $2)", [deckId, NOW]),
  );

interface StatsRow {
  deck_id: string;
  parent_id: string | null;
  new_today: number;
  tree_new_today: number;
  tree_due_count: number;
}

const statsOf = async (user: User, deckId: string) =>
  only(
    (
      await actAs(db, user, (tx) =>
        tx.query<StatsRow>(
          "select deck_id, parent_id, new_today, tree_new_today, tree_due_count from deck_stats(p_now => $1)",
          [NOW],
        ),
      )
    ).filter((row) => row.deck_id === deckId),
  );

describe("studying a deck with subdecks", () => {
  // Spanish (limit 5 new, 2 cards) › Verbs (limit 3, 4 cards), Nouns (no limit
  // of its own: the profile's 20, 4 cards). Studying Spanish: Spanish gives 2,
  // Verbs 3, Nouns 4 = 9 within each deck's own limit, capped at Spanish's 5.
  let ana: User;
  let spanish: string;
  let verbs: string;
  let nouns: string;
  const decksOf = (rows: QueueRow[]) => {
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const name = row.deck_id === spanish ? "Spanish" : row.deck_id === verbs ? "Verbs" : "Nouns";
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return counts;
  };

  beforeAll(async () => {
    ana = await createUser(db);
    spanish = await createDeck(db, ana, { name: "Spanish", newPerDay: 5 });
    verbs = await subdeck(ana, spanish, { name: "Verbs", newPerDay: 3 });
    nouns = await subdeck(ana, spanish, { name: "Nouns" });
    await addBasicCards(db, ana, spanish, 2, "Spanish");
    await addBasicCards(db, ana, verbs, 4, "Verb");
    await addBasicCards(db, ana, nouns, 4, "Noun");
  });

  test("each subdeck gives cards within its own limit and the deck studied caps the sum", async () => {
    const rows = await queueOf(ana, spanish);
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.queue === "new")).toBe(true);
    // Cards come in creation order: Spanish's 2, then Verbs' first 3 (its limit).
    expect(decksOf(rows)).toEqual({ Spanish: 2, Verbs: 3 });

    // A subdeck alone keeps its own limit; all decks give every deck's own allowance.
    expect(decksOf(await queueOf(ana, verbs))).toEqual({ Verbs: 3 });
    expect(decksOf(await queueOf(ana, nouns))).toEqual({ Nouns: 4 });
    expect(decksOf(await queueOf(ana, null))).toEqual({ Spanish: 2, Verbs: 3, Nouns: 4 });

    // The deck list says the same: Spanish's own 2, its tree's 5.
    expect(await statsOf(ana, spanish)).toMatchObject({ parent_id: null, new_today: 2, tree_new_today: 5 });
    expect(await statsOf(ana, verbs)).toMatchObject({ parent_id: spanish, new_today: 3, tree_new_today: 3 });
  });

  test("what was studied today in a subdeck counts against the deck studied", async () => {
    // Two new Nouns answered today: Spanish has 3 left, Nouns 2 fewer.
    const first = await queueOf(ana, nouns);
    for (const row of first.slice(0, 2)) {
      await actAs(db, ana, (tx) =>
        recordReview(tx, {
          cardId: row.card_id,
          expectedVersion: 0,
          rating: 3,
          reviewedAt: NOW,
        }),
      );
    }
    const rows = await queueOf(ana, spanish);
    expect(rows.filter((row) => row.queue === "new")).toHaveLength(3);
    expect(decksOf(rows.filter((row) => row.queue === "new"))).toEqual({ Spanish: 2, Verbs: 1 });
    expect(await statsOf(ana, spanish)).toMatchObject({ tree_new_today: 3 });
    expect(await statsOf(ana, nouns)).toMatchObject({ new_today: 2, tree_new_today: 2 });
  });
});

describe("importing a package's deck tree", () => {
  let ana: User;
  beforeAll(async () => {
    ana = await createUser(db);
  });

  const note = (guid: string, deck?: string[]) => ({
    guid,
    kind: "basic",
    fields: { front: `Front ${guid}`, back: "Back" },
    tags: [],
    cards: [],
    ...(deck ? { deck } : {}),
  });
  const notes = [
    note("s1", ["Spanish"]),
    note("b1", ["Old Decks", "Board Review 2023"]),
    note("b2", ["Old Decks", "Board Review 2023"]),
    note("e1", ["Example Deck"]),
  ];

  async function runImport(tx: Queryable, deckId: string, options: Record<string, unknown>) {
    const jobId = randomUUID();
    await tx.query(
      "select * from start_import(p_job_id => $1, p_source => 'apkg', p_total => $2, p_deck_id => $3, p_options => $4)",
      [jobId, notes.length, deckId, options],
    );
    await tx.query("select * from stage_import(p_job_id => $1, p_batch => 0, p_payload => $2, p_processed => $3)", [
      jobId,
      JSON.stringify({ notes }),
      notes.length,
    ]);
    return only(await tx.query<{ summary: Record<string, number> }>("select * from finish_import($1)", [jobId]));
  }

  const treeOf = (rootId: string) =>
    db.query<{ path: string; notes: number }>(
      `with recursive t (id, path) as (
         select id, name from decks where id = $1
         union all
         select d.id, t.path || ' › ' || d.name from decks d join t on d.parent_id = t.id
       )
       select t.path, (select count(*)::integer from notes n where n.deck_id = t.id) as notes
       from t order by t.path`,
      [rootId],
    );

  test("makes one deck per path under the target, each note in its deck, and a second import adds nothing", async () => {
    const target = await createDeck(db, ana, { name: "Package" });
    const first = await actAs(db, ana, (tx) => runImport(tx, target, { deck_tree: true }));
    expect(first.summary.notes_added).toBe(4);
    const expected = [
      { path: "Package", notes: 0 },
      { path: "Package › Example Deck", notes: 1 },
      { path: "Package › Old Decks", notes: 0 },
      { path: "Package › Old Decks › Board Review 2023", notes: 2 },
      { path: "Package › Spanish", notes: 1 },
    ];
    expect(await treeOf(target)).toEqual(expected);
    // Cards and schedules follow their notes.
    const misplaced = await db.query(
      "select c.id from cards c join notes n on n.id = c.note_id where c.deck_id <> n.deck_id and n.source_guid = 'b1'",
    );
    expect(misplaced).toEqual([]);

    const again = await actAs(db, ana, (tx) => runImport(tx, target, { deck_tree: true }));
    expect(again.summary).toMatchObject({ notes_added: 0, notes_skipped: 4 });
    expect(await treeOf(target)).toEqual(expected);
  });

  test("without deck_tree every note lands in the target", async () => {
    const target = await createDeck(db, ana, { name: "Flat" });
    await actAs(db, ana, (tx) => runImport(tx, target, {}));
    expect(await treeOf(target)).toEqual([{ path: "Flat", notes: 4 }]);
  });

  test("an editor may import notes but not a deck tree into someone else's deck", async () => {
    const ben = await createUser(db);
    const target = await createDeck(db, ana, { name: "Ana's" });
    await addMember(db, ana, target, ben, "editor");
    const error = await failure(actAs(db, ben, (tx) => runImport(tx, target, { deck_tree: true })));
    expect(error.code).toBe("42501");
    expect(await treeOf(target)).toEqual([{ path: "Ana's", notes: 0 }]);
  });
});

describe("note types in a tree that moves or is copied", () => {
  let ana: User;
  let ben: User;
  let cid: User;
  beforeAll(async () => {
    [ana, ben, cid] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
  });

  const words = {
    kind: "standard",
    fields: ["Word", "Meaning"],
    templates: [
      { name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
      { name: "Recall", front: "{{Meaning}}", back: "{{FrontSide}}<hr id=answer>{{Word}}" },
    ],
    css: ".card { color: navy; }",
  };

  const addType = async (owner: User, deckId: string, name: string, css = words.css) =>
    only(
      await actAs(db, owner, (tx) =>
        tx.query<{ id: string }>(
          "insert into note_types (deck_id, name, kind, fields, templates, css) values ($1, $2, $3, $4, $5, $6) returning id",
          [deckId, name, words.kind, words.fields, JSON.stringify(words.templates), css],
        ),
      ),
      "note type",
    ).id;

  const addWord = async (owner: User, deckId: string, typeId: string, word: string) =>
    only(
      await actAs(db, owner, (tx) =>
        tx.query<{ id: string }>(
          "insert into notes (deck_id, kind, note_type_id, fields) values ($1, 'custom', $2, $3) returning id",
          [deckId, typeId, JSON.stringify({ Word: word, Meaning: `${word}?` })],
        ),
      ),
      "note",
    ).id;

  /** Each note of the decks (by its Word) with its note type's deck and name, and its card ids. */
  const notesOf = (deckIds: string[]) =>
    db.query<{ word: string; deck_id: string; type_deck: string; type_name: string; cards: string[] }>(
      `select n.fields ->> 'Word' as word, n.deck_id, t.deck_id as type_deck, t.name as type_name,
         array(select c.id from cards c where c.note_id = n.id order by c.ordinal) as cards
       from notes n join note_types t on t.id = n.note_type_id
       where n.deck_id = any($1::uuid[]) order by n.fields ->> 'Word'`,
      [deckIds],
    );

  /** The word of the note of each card in the queue, in order of the words. */
  const notesStudied = (notes: { word: string; cards: string[] }[], queue: QueueRow[]) =>
    queue.map((row) => notes.find((note) => note.cards.includes(row.card_id))?.word).sort();

  const typeNames = async (deckId: string) =>
    (await db.query<{ name: string }>("select name from note_types where deck_id = $1 order by name", [deckId])).map(
      (row) => row.name,
    );

  const clone = async (user: User, deckId: string) =>
    only(await actAs(db, user, (tx) => tx.query<{ id: string }>("select clone_deck($1) as id", [deckId]))).id;

  /** The decks below `deckId` with the parent's name, by name. */
  const treeOf = (deckId: string) =>
    db.query<{ name: string; parent: string }>(
      `with recursive down (id) as (select $1::uuid union all select d.id from decks d join down on d.parent_id = down.id)
       select d.name, p.name as parent from down join decks d on d.id = down.id join decks p on p.id = d.parent_id
       order by d.name`,
      [deckId],
    );

  test("a deck moved out from under its note types' deck takes copies; its cards and schedules stay", async () => {
    const top = await createDeck(db, ana, { name: "Languages" });
    const topWords = await addType(ana, top, "Words");
    const middle = await subdeck(ana, top, { name: "Spanish" });
    const ownType = await addType(ana, middle, "Phrases");
    const bottom = await subdeck(ana, middle, { name: "Verbs" });
    const sibling = await subdeck(ana, top, { name: "Italian" });
    await addWord(ana, middle, topWords, "sol");
    await addWord(ana, bottom, topWords, "comer");
    await addWord(ana, bottom, ownType, "hola");
    const before = await notesOf([middle, bottom]);
    const cardIds = before.flatMap((note) => note.cards);
    expect(cardIds).toHaveLength(6);
    const states = await db.query("select user_id, card_id from card_states where card_id = any($1::uuid[])", [
      cardIds,
    ]);

    // Under a sibling, the types of "Languages" are still above it: nothing changes.
    await setParent(ana, middle, sibling);
    expect(await notesOf([middle, bottom])).toEqual(before);
    expect(await typeNames(middle)).toEqual(["Phrases"]);

    // At the top level, "Words" is copied into "Spanish" and both notes use the copy.
    await setParent(ana, middle, null);
    expect(await typeNames(middle)).toEqual(["Phrases", "Words"]);
    expect(await typeNames(top)).toEqual(["Words"]);
    const after = await notesOf([middle, bottom]);
    expect(after.map(({ word, deck_id, type_deck, type_name }) => ({ word, deck_id, type_deck, type_name }))).toEqual([
      { word: "comer", deck_id: bottom, type_deck: middle, type_name: "Words" },
      { word: "hola", deck_id: bottom, type_deck: middle, type_name: "Phrases" },
      { word: "sol", deck_id: middle, type_deck: middle, type_name: "Words" },
    ]);
    expect(after.flatMap((note) => note.cards)).toEqual(cardIds);
    expect(
      await db.query("select user_id, card_id from card_states where card_id = any($1::uuid[])", [cardIds]),
    ).toEqual(states);
    // Studying "Spanish" gives a card of each note (its sibling is buried for the day).
    expect(notesStudied(after, await queueOf(ana, middle))).toEqual(["comer", "hola", "sol"]);

    // Back under "Languages" and out again: the copy is used again, not copied twice.
    await setParent(ana, middle, top);
    await setParent(ana, middle, null);
    expect(await typeNames(middle)).toEqual(["Phrases", "Words"]);
  });

  test("a deck moved to where another type has the name takes a numbered copy; a plain update does the same", async () => {
    const top = await createDeck(db, ana, { name: "Medicine" });
    const topWords = await addType(ana, top, "Words");
    const sub = await subdeck(ana, top, { name: "Anatomy" });
    await addType(ana, sub, "Words", "p {}");
    await addWord(ana, sub, topWords, "femur");
    await actAs(db, ana, (tx) => tx.query("update decks set parent_id = null where id = $1", [sub]));
    expect(await typeNames(sub)).toEqual(["Words", "Words (2)"]);
    expect((await notesOf([sub]))[0]).toMatchObject({ type_deck: sub, type_name: "Words (2)" });
  });

  test("a subdeck handed to another owner leaves its tree with copies of the types its notes use", async () => {
    const top = await createDeck(db, ana, { name: "Chemistry" });
    const topWords = await addType(ana, top, "Words");
    const sub = await subdeck(ana, top, { name: "Organic" });
    await addWord(ana, sub, topWords, "benzene");
    await addMember(db, ana, sub, ben, "editor");
    await actAs(db, ana, (tx) => tx.query("select transfer_deck_ownership($1, $2)", [sub, ben.id]));
    expect(await parentOf(sub)).toBeNull();
    expect((await notesOf([sub]))[0]).toMatchObject({ type_deck: sub, type_name: "Words" });
  });

  test("a copy of a deck brings the subdecks the caller can read as a tree, and the types their notes use", async () => {
    const top = await createDeck(db, ana, { name: "Greek", isPublic: true });
    const topWords = await addType(ana, top, "Words");
    const mid = await subdeck(ana, top, { name: "Roots" });
    await actAs(db, ana, (tx) => tx.query("update decks set is_public = true where id = $1", [mid]));
    const leaf = await subdeck(ana, mid, { name: "Prefixes" });
    await actAs(db, ana, (tx) => tx.query("update decks set is_public = true where id = $1", [leaf]));
    const hidden = await subdeck(ana, top, { name: "Drafts" });
    await addWord(ana, top, topWords, "logos");
    await addWord(ana, mid, topWords, "graph");
    await addWord(ana, leaf, topWords, "anti");
    await addWord(ana, hidden, topWords, "secret");

    // The owner copies all four; a stranger the three public ones, without what is below the private one.
    const own = await clone(ana, top);
    expect(await treeOf(own)).toEqual([
      { name: "Drafts", parent: "Greek (copy)" },
      { name: "Prefixes", parent: "Roots" },
      { name: "Roots", parent: "Greek (copy)" },
    ]);
    const copy = await clone(cid, top);
    expect(await treeOf(copy)).toEqual([
      { name: "Prefixes", parent: "Roots" },
      { name: "Roots", parent: "Greek (copy)" },
    ]);
    const copied = await db.query<{ id: string; owner_id: string; cloned_from: string }>(
      `with recursive down (id) as (select $1::uuid union all select d.id from decks d join down on d.parent_id = down.id)
       select d.id, d.owner_id, d.cloned_from from down join decks d on d.id = down.id`,
      [copy],
    );
    expect(new Set(copied.map((deck) => deck.cloned_from))).toEqual(new Set([top, mid, leaf]));
    expect(copied.every((deck) => deck.owner_id === cid.id)).toBe(true);
    const notes = await notesOf(copied.map((deck) => deck.id));
    expect(notes.map((note) => note.word)).toEqual(["anti", "graph", "logos"]);
    expect(notes.every((note) => note.type_deck === copy && note.type_name === "Words")).toBe(true);
    expect(notes.every((note) => note.cards.length === 2)).toBe(true);
    // Nobody's schedule comes along: the copier studies a card of each note as new.
    const queue = await queueOf(cid, copy);
    expect(notesStudied(notes, queue)).toEqual(["anti", "graph", "logos"]);
    expect(queue.every((row) => row.queue === "new")).toBe(true);

    // A subdeck copied alone takes a copy of the type its notes use from the deck above.
    const part = await clone(cid, mid);
    expect(await typeNames(part)).toEqual(["Words"]);
    expect((await notesOf([part]))[0]).toMatchObject({ word: "graph", type_deck: part, type_name: "Words" });
    expect(await treeOf(part)).toEqual([{ name: "Prefixes", parent: "Roots (copy)" }]);
  });

  test("a private subdeck cannot be copied by someone who cannot read it, and the refusal leaves nothing", async () => {
    const top = await createDeck(db, ana, { name: "Public top", isPublic: true });
    const sub = await subdeck(ana, top, { name: "Private sub" });
    const decksBefore = await db.query("select id from decks where owner_id = $1", [cid.id]);
    const error = await failure(clone(cid, sub));
    expect(error.code).toBe("PT404");
    expect(await db.query("select id from decks where owner_id = $1", [cid.id])).toEqual(decksBefore);
  });
});
