import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  type AddedNote,
  addMember,
  addNotes,
  basic,
  cloze,
  createDeck,
  failure,
  only,
  reversed,
  reviewDue,
  setState,
  stateOf,
  type User,
} from "./support/study-fixtures.js";

// clone_deck, move_notes and set_suspended (docs/product.md §2 explore and deck
// screens, §6 roles, §7).

let db: Database;
let alice: User;
let bob: User;
let carol: User;

beforeAll(async () => {
  db = await openTestDatabase();
  [alice, bob, carol] = await Promise.all([
    createUser(db, { displayName: "Alice" }),
    createUser(db, { displayName: "Bob" }),
    createUser(db, { displayName: "Carol" }),
  ]);
});
afterAll(() => db.close());

interface NoteRow {
  kind: string;
  fields: unknown;
  tags: string[];
}
const notesOf = (deckId: string) =>
  db.query<NoteRow & { created_by: string }>(
    "select kind, fields, tags, created_by from notes where deck_id = $1 order by created_at, fields::text",
    [deckId],
  );
const cardCount = (deckId: string) =>
  db
    .query<{ n: number }>("select count(*)::int as n from cards where deck_id = $1", [deckId])
    .then((rows) => only(rows).n);

describe("clone_deck", () => {
  // Alice's public "Capitals" (studied by her) and private "Secrets" (Bob is a viewer).
  let capitals: string;
  let secrets: string;
  const capitalsNotes = [
    basic("France", "Paris", ["geo", "europe"]),
    reversed("Japan", "Tokyo", ["geo", "asia"]),
    cloze("{{c1::Canberra}} is the capital of {{c2::Australia}}", "not Sydney", ["geo"]),
  ];

  beforeAll(async () => {
    capitals = await createDeck(db, alice, { name: "Capitals", isPublic: true, newPerDay: 5 });
    await actAs(db, alice, (tx) =>
      tx.query("update decks set description = 'Countries and capitals' where id = $1", [capitals]),
    );
    const added = await addNotes(db, alice, capitals, capitalsNotes);
    // Alice has studied the first card: her schedule must not travel with the copy.
    await setState(db, alice.id, added[0]?.cardIds[0] as string, reviewDue("2026-01-20T12:00:00Z"));
    secrets = await createDeck(db, alice, { name: "Secrets" });
    await addMember(db, alice, secrets, bob, "viewer");
    await addNotes(db, alice, secrets, [basic("Password", "hunter2")]);
  });

  const cloneDeck = (tx: Queryable, deckId: string, name?: string) =>
    tx
      .query<{ id: string }>("select clone_deck(p_deck_id => $1, p_name => $2) as id", [deckId, name ?? null])
      .then((rows) => only(rows).id);

  test("copies a public deck's notes (kinds, fields, tags) and so its cards for someone outside it", async () => {
    const clone = await actAs(db, carol, (tx) => cloneDeck(tx, capitals));
    const strip = (notes: NoteRow[]) => notes.map(({ kind, fields, tags }) => ({ kind, fields, tags }));
    expect(strip(await notesOf(clone))).toEqual(strip(await notesOf(capitals)));
    expect((await notesOf(clone)).map((note) => note.created_by)).toEqual([carol.id, carol.id, carol.id]);
    expect(await cardCount(clone)).toBe(5); // 1 + 2 + 2
  });

  test("makes the copy a private deck owned by the caller, with the source's name, description and limits", async () => {
    const clone = await actAs(db, carol, (tx) => cloneDeck(tx, capitals));
    const [deck] = await db.query(
      "select owner_id, name, description, is_public, new_per_day, reviews_per_day from decks where id = $1",
      [clone],
    );
    expect(deck).toEqual({
      owner_id: carol.id,
      name: "Capitals (copy)",
      description: "Countries and capitals",
      is_public: false,
      new_per_day: 5,
      reviews_per_day: null,
    });
    expect(await db.query("select user_id, role from deck_members where deck_id = $1", [clone])).toEqual([
      { user_id: carol.id, role: "owner" },
    ]);
  });

  test("leaves the cover behind: it lives in the source deck's media folder", async () => {
    await db.query("update decks set cover_path = $2 where id = $1", [capitals, `${capitals}/cover.png`]);
    const clone = await actAs(db, carol, (tx) => cloneDeck(tx, capitals));
    const [deck] = await db.query("select cover_path from decks where id = $1", [clone]);
    expect(deck).toEqual({ cover_path: null });
  });

  test("takes the name given instead", async () => {
    const clone = await actAs(db, carol, (tx) => cloneDeck(tx, capitals, "My capitals"));
    expect(await db.query("select name from decks where id = $1", [clone])).toEqual([{ name: "My capitals" }]);
  });

  test("copies no schedule: the caller's cards are all new, and nobody else has any", async () => {
    const clone = await actAs(db, carol, (tx) => cloneDeck(tx, capitals));
    const states = await db.query<{ user_id: string; state: string; reps: number; version: number; n: number }>(
      `select user_id, state, reps, version, count(*)::int as n from card_states where deck_id = $1
       group by user_id, state, reps, version`,
      [clone],
    );
    expect(states).toEqual([{ user_id: carol.id, state: "new", reps: 0, version: 0, n: 5 }]);
    expect(
      await db.query("select 1 from review_logs l join cards c on c.id = l.card_id where c.deck_id = $1", [clone]),
    ).toEqual([]);
  });

  test("copies a private deck for a member of it", async () => {
    const clone = await actAs(db, bob, (tx) => cloneDeck(tx, secrets));
    expect((await notesOf(clone)).map((note) => note.fields)).toEqual([{ front: "Password", back: "hunter2" }]);
    expect(await db.query("select owner_id, is_public from decks where id = $1", [clone])).toEqual([
      { owner_id: bob.id, is_public: false },
    ]);
  });

  test("does not find a private deck the caller cannot see (PT404 deck_id), creating nothing", async () => {
    const countDecks = () =>
      db.query("select id from decks where owner_id = $1", [carol.id]).then((rows) => rows.length);
    const before = await countDecks();
    const error = await failure(actAs(db, carol, (tx) => cloneDeck(tx, secrets)));
    expect(error).toMatchObject({ code: "PT404", detail: "deck_id" });
    expect(await countDecks()).toBe(before);
  });

  test("does not find a deck that does not exist (PT404 deck_id)", async () => {
    const result = await probeAs(db, carol, (tx) => cloneDeck(tx, randomUUID()));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "deck_id" } });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => cloneDeck(tx, capitals));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("move_notes", () => {
  // Alice owns "Source" (Bob studies it) and "Target" (Carol studies it);
  // Bob is also an editor of "Bob's corner". Each test moves its own notes.
  let source: string;
  let target: string;
  let corner: string;

  beforeAll(async () => {
    source = await createDeck(db, alice, { name: "Source" });
    target = await createDeck(db, alice, { name: "Target" });
    corner = await createDeck(db, alice, { name: "Bob's corner" });
    await addMember(db, alice, source, bob, "viewer");
    await addMember(db, alice, target, carol, "viewer");
    await addMember(db, alice, corner, bob, "editor");
  });

  const moveNotes = (tx: Queryable, noteIds: string[], deckId: string) =>
    tx
      .query<{ moved: number }>("select move_notes(p_note_ids => $1, p_deck_id => $2) as moved", [noteIds, deckId])
      .then((rows) => only(rows).moved);
  const deckOfNotes = (ids: string[]) =>
    db
      .query<{ deck_id: string }>("select deck_id from notes where id = any($1) order by id", [ids])
      .then((rows) => rows.map((r) => r.deck_id));

  test("moves the notes with their cards (same ids) and returns how many moved", async () => {
    const notes = await addNotes(db, alice, source, [basic("One", "1"), reversed("Two", "2")]);
    const cardIds = notes.flatMap((note) => note.cardIds);

    const moved = await actAs(db, alice, (tx) =>
      moveNotes(
        tx,
        notes.map((n) => n.noteId),
        target,
      ),
    );

    expect(moved).toBe(2);
    expect(await deckOfNotes(notes.map((n) => n.noteId))).toEqual([target, target]);
    expect(await db.query("select deck_id from cards where id = any($1)", [cardIds])).toEqual(
      cardIds.map(() => ({ deck_id: target })),
    );
  });

  test("takes everyone's schedules along, unchanged but for the deck", async () => {
    const [note] = (await addNotes(db, alice, source, [basic("Studied", "by two")])) as [AddedNote];
    const card = note.cardIds[0] as string;
    await setState(db, alice.id, card, reviewDue("2026-02-01T10:00:00Z", { version: 4 }));
    await setState(db, bob.id, card, reviewDue("2026-02-03T10:00:00Z", { lapses: 2, version: 6 }));
    const aliceBefore = await stateOf(db, alice.id, card);
    const bobBefore = await stateOf(db, bob.id, card);

    await actAs(db, alice, (tx) => moveNotes(tx, [note.noteId], target));

    // Bob is not a member of Target: his schedule stays (for if he joins), moved with the card.
    expect(await stateOf(db, alice.id, card)).toEqual({ ...aliceBefore, deck_id: target });
    expect(await stateOf(db, bob.id, card)).toEqual({ ...bobBefore, deck_id: target });
  });

  test("gives the target deck's members a 'new' schedule for the moved cards", async () => {
    const [note] = (await addNotes(db, alice, source, [reversed("Arrives", "for Carol")])) as [AddedNote];
    expect(
      await db.query("select 1 from card_states where user_id = $1 and card_id = any($2)", [carol.id, note.cardIds]),
    ).toEqual([]);

    await actAs(db, alice, (tx) => moveNotes(tx, [note.noteId], target));

    const carolStates = await db.query(
      "select card_id, deck_id, state, version from card_states where user_id = $1 and card_id = any($2) order by card_id",
      [carol.id, note.cardIds],
    );
    expect(carolStates).toEqual(
      [...note.cardIds].sort().map((card_id) => ({ card_id, deck_id: target, state: "new", version: 0 })),
    );
  });

  test("refuses a target deck the caller can only view (42501)", async () => {
    const [note] = (await addNotes(db, bob, corner, [basic("Bob's", "note")])) as [AddedNote];
    const error = await failure(actAs(db, bob, (tx) => moveNotes(tx, [note.noteId], source)));
    expect(error.code).toBe("42501");
    expect(await deckOfNotes([note.noteId])).toEqual([corner]);
  });

  test("refuses notes from a deck the caller can only view (42501)", async () => {
    const [note] = (await addNotes(db, alice, source, [basic("Not", "Bob's")])) as [AddedNote];
    const error = await failure(actAs(db, bob, (tx) => moveNotes(tx, [note.noteId], corner)));
    expect(error.code).toBe("42501");
    expect(await deckOfNotes([note.noteId])).toEqual([source]);
  });

  test("moves nothing when one of the notes may not be moved", async () => {
    const [mine] = (await addNotes(db, bob, corner, [basic("Movable", "by Bob")])) as [AddedNote];
    const [notMine] = (await addNotes(db, alice, source, [basic("Stuck", "for Bob")])) as [AddedNote];
    const error = await failure(actAs(db, bob, (tx) => moveNotes(tx, [mine.noteId, notMine.noteId], corner)));
    expect(error.code).toBe("42501");
    const second = await failure(actAs(db, alice, (tx) => moveNotes(tx, [notMine.noteId, randomUUID()], target)));
    expect(second).toMatchObject({ code: "PT404", detail: "note_ids" });
    expect(await deckOfNotes([notMine.noteId])).toEqual([source]);
    expect(await db.query("select deck_id from cards where note_id = $1", [notMine.noteId])).toEqual([
      { deck_id: source },
    ]);
  });

  test("does not find an unknown note (PT404 note_ids)", async () => {
    const result = await probeAs(db, alice, (tx) => moveNotes(tx, [randomUUID()], target));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "note_ids" } });
  });

  test("does not find a note of a deck the caller cannot see (PT404 note_ids)", async () => {
    const hidden = await createDeck(db, alice, { name: "Hidden" });
    const [note] = (await addNotes(db, alice, hidden, [basic("Hidden", "note")])) as [AddedNote];
    const result = await probeAs(db, bob, (tx) => moveNotes(tx, [note.noteId], corner));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "note_ids" } });
  });

  test("does not find a target deck the caller cannot see (PT404 deck_id)", async () => {
    const [note] = (await addNotes(db, bob, corner, [basic("Going", "nowhere")])) as [AddedNote];
    const hidden = await createDeck(db, alice, { name: "Hidden target" });
    const result = await probeAs(db, bob, (tx) => moveNotes(tx, [note.noteId], hidden));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "deck_id" } });
  });

  test("counts nothing for notes already in the target deck", async () => {
    const [note] = (await addNotes(db, alice, target, [basic("Already", "there")])) as [AddedNote];
    const result = await probeAs(db, alice, (tx) => moveNotes(tx, [note.noteId], target));
    expect(result).toEqual({ ok: true, value: 0 });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => moveNotes(tx, [randomUUID()], target));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("set_suspended", () => {
  // Alice's "Shared" deck, studied by Bob; Alice's public "Open" deck Carol never added.
  let shared: string;
  let openCard: string;

  beforeAll(async () => {
    shared = await createDeck(db, alice, { name: "Shared" });
    await addMember(db, alice, shared, bob, "viewer");
    const open = await createDeck(db, alice, { name: "Open", isPublic: true });
    openCard = only((await addNotes(db, alice, open, [basic("Star", "Estrella")]))[0]?.cardIds ?? []);
  });

  /** Two fresh cards of Shared (a reversed note) for one test, both unsuspended for Alice and Bob. */
  const twoCards = async () =>
    only(await addNotes(db, alice, shared, [reversed("Sun", "Sol")])).cardIds as [string, string];
  const setSuspended = (tx: Queryable, cardIds: string[], suspended: boolean | null) =>
    tx
      .query<{ changed: number }>("select set_suspended(p_card_ids => $1, p_suspended => $2) as changed", [
        cardIds,
        suspended,
      ])
      .then((rows) => only(rows).changed);
  const suspended = (user: User, cards: string[]) =>
    Promise.all(cards.map(async (card) => (await stateOf(db, user.id, card))?.suspended));

  test("suspends only the caller's own schedules and returns how many changed", async () => {
    const cards = await twoCards();
    expect(await actAs(db, bob, (tx) => setSuspended(tx, cards, true))).toBe(2);
    expect(await suspended(bob, cards)).toEqual([true, true]);
    expect(await suspended(alice, cards)).toEqual([false, false]);
  });

  test("counts only the cards whose flag actually changed", async () => {
    const [sun, sol] = await twoCards();
    await actAs(db, bob, (tx) => setSuspended(tx, [sun], true));
    expect(await actAs(db, bob, (tx) => setSuspended(tx, [sun, sol], true))).toBe(1);
    expect(await actAs(db, bob, (tx) => setSuspended(tx, [sun, sol], false))).toBe(2);
    expect(await suspended(bob, [sun, sol])).toEqual([false, false]);
  });

  test("does not find an unknown card (PT404 card_ids) and changes none of the others", async () => {
    const [sun] = await twoCards();
    const error = await failure(actAs(db, bob, (tx) => setSuspended(tx, [sun, randomUUID()], true)));
    expect(error).toMatchObject({ code: "PT404", detail: "card_ids" });
    expect(await suspended(bob, [sun])).toEqual([false]);
  });

  test("does not find a card of a deck the caller does not study, even a public one (PT404)", async () => {
    const [sun] = await twoCards();
    const privateCard = await failure(actAs(db, carol, (tx) => setSuspended(tx, [sun], true)));
    expect(privateCard).toMatchObject({ code: "PT404", detail: "card_ids" });
    const publicCard = await failure(actAs(db, carol, (tx) => setSuspended(tx, [openCard], true)));
    expect(publicCard).toMatchObject({ code: "PT404", detail: "card_ids" });
    expect(await suspended(alice, [sun, openCard])).toEqual([false, false]);
  });

  test("refuses a missing true/false (22023 suspended)", async () => {
    const cards = await twoCards();
    const result = await probeAs(db, bob, (tx) => setSuspended(tx, cards, null));
    expect(result).toMatchObject({ ok: false, error: { code: "22023", detail: "suspended" } });
  });

  test("cannot be called anonymously", async () => {
    const cards = await twoCards();
    const result = await probeAs(db, anon, (tx) => setSuspended(tx, cards, true));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("tag_notes", () => {
  // Alice owns "Tagged"; Bob edits it, Carol views it.
  let deck: string;

  beforeAll(async () => {
    deck = await createDeck(db, alice, { name: "Tagged" });
    await addMember(db, alice, deck, bob, "editor");
    await addMember(db, alice, deck, carol, "viewer");
  });

  const tagNotes = (tx: Queryable, noteIds: string[], add: string[], remove: string[] = []) =>
    tx.query<{ id: string; tags: string[] }>(
      "select id, tags from tag_notes(p_note_ids => $1, p_add => $2, p_remove => $3)",
      [noteIds, add, remove],
    );
  const tagsOf = async (ids: string[]) => {
    const rows = await db.query<{ id: string; tags: string[] }>("select id, tags from notes where id = any($1)", [ids]);
    return ids.map((id) => rows.find((row) => row.id === id)?.tags);
  };

  test("an editor adds and removes tags on many notes at once; kept tags keep their order", async () => {
    const [one, two] = await addNotes(db, alice, deck, [
      basic("One", "1", ["verb", "old"]),
      basic("Two", "2", ["noun"]),
    ]);
    const ids = [one?.noteId ?? "", two?.noteId ?? ""];
    const rows = await actAs(db, bob, (tx) => tagNotes(tx, ids, ["a1", "verb"], ["old"]));
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(await tagsOf(ids)).toEqual([
      ["verb", "a1"],
      ["noun", "a1", "verb"],
    ]);
  });

  test("a tag that breaks the rules fails the whole call and changes no note", async () => {
    const [three, four] = await addNotes(db, alice, deck, [basic("Three", "3", ["x"]), basic("Four", "4")]);
    const ids = [three?.noteId ?? "", four?.noteId ?? ""];
    expect(await failure(actAs(db, bob, (tx) => tagNotes(tx, ids, ["has space"])))).toMatchObject({
      code: "23514",
      constraint: "notes_tags_format",
    });
    const many = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect(await failure(actAs(db, bob, (tx) => tagNotes(tx, ids, many)))).toMatchObject({
      code: "23514",
      constraint: "notes_tags_count",
    });
    expect(await tagsOf(ids)).toEqual([["x"], []]);
  });

  test("a viewer may not tag; unknown notes are not found; empty calls are refused", async () => {
    const [five] = await addNotes(db, alice, deck, [basic("Five", "5")]);
    const id = five?.noteId ?? "";
    const refused = (actor: Parameters<typeof actAs>[1], ids: string[], add: string[], remove: string[] = []) =>
      failure(actAs(db, actor, (tx) => tagNotes(tx, ids, add, remove)));
    expect(await refused(carol, [id], ["mine"])).toMatchObject({ code: "42501" });
    expect(await refused(bob, [id, randomUUID()], ["x"])).toMatchObject({ code: "PT404", detail: "note_ids" });
    expect(await refused(bob, [], ["x"])).toMatchObject({ code: "22023", detail: "note_ids" });
    expect(await refused(bob, [id], [], [])).toMatchObject({ code: "22023", detail: "tags" });
    expect(await refused(anon, [id], ["x"])).toMatchObject({ code: "42501" });
    expect(await tagsOf([id])).toEqual([[]]);
  });
});
