import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { addMember, addNote, basic, createDeck, failure, only, type User } from "./support/study-fixtures.js";

// Suggestions (docs/product.md §4, "Suggestions"): who may make them, the
// limits on them, and what accepting, rejecting and closing them does.

let db: Database;
let olga: User; // owns the decks
let ed: User; // edits them
let vera: User; // views them
let pat: User; // a stranger who reads public decks
let deck: string;
let publicDeck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed, vera, pat] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Ed" }),
    createUser(db, { displayName: "Vera" }),
    createUser(db, { displayName: "Pat" }),
  ]);
  [deck, publicDeck] = await Promise.all([
    createDeck(db, olga, { name: "Anatomy" }),
    createDeck(db, olga, { name: "Open", isPublic: true }),
  ]);
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, deck, vera, "viewer");
  await addMember(db, olga, publicDeck, vera, "viewer");
});
afterAll(() => db.close());

interface Suggestion {
  id: string;
  deck_id: string;
  note_id: string | null;
  author_id: string;
  action: "edit" | "create" | "delete";
  status: "pending" | "accepted" | "rejected" | "closed";
  fields: Record<string, string> | null;
  tags: string[] | null;
  base_version: number | null;
  closed_because: string | null;
  review_reason: string | null;
  reviewer_id: string | null;
}

interface SuggestArgs {
  action: "edit" | "create" | "delete";
  deckId?: string;
  noteId?: string;
  kind?: string;
  fields?: Record<string, string>;
  tags?: string[];
  rationale?: string;
}

const suggestIn = (tx: Queryable, a: SuggestArgs) =>
  tx
    .query<Suggestion>(
      `select * from suggest_note_change(p_action => $1, p_deck_id => $2, p_note_id => $3, p_kind => $4,
         p_fields => $5, p_tags => $6, p_rationale => $7)`,
      [
        a.action,
        a.deckId ?? null,
        a.noteId ?? null,
        a.kind ?? null,
        a.fields ? JSON.stringify(a.fields) : null,
        a.tags ?? null,
        a.rationale ?? "",
      ],
    )
    .then((rows) => only(rows, "suggestion"));

const suggest = (user: User, a: SuggestArgs) => actAs(db, user, (tx) => suggestIn(tx, a));

const review = (
  user: User,
  ids: string[],
  decision: string,
  reason: string | null = null,
  edits: object | null = null,
) =>
  actAs(db, user, (tx) =>
    tx.query<Suggestion>("select * from review_suggestions($1, $2, $3, $4)", [
      ids,
      decision,
      reason,
      edits ? JSON.stringify(edits) : null,
    ]),
  );

const suggestionOf = async (id: string) =>
  only(await db.query<Suggestion>("select * from note_suggestions where id = $1", [id]));

const noteOf = async (id: string) =>
  (
    await db.query<{ version: number; fields: Record<string, string>; tags: string[] }>(
      "select version, fields, tags from notes where id = $1",
      [id],
    )
  )[0];

const setSuggestionsFrom = (deckId: string, value: string) =>
  actAs(db, olga, (tx) => tx.query("update decks set suggestions_from = $2 where id = $1", [deckId, value]));

describe("who may suggest", () => {
  test("a viewer cannot update a note directly but can suggest an edit", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Heart", "Pump"));
    const updated = await actAs(db, vera, (tx) =>
      tx.query("update notes set fields = $2 where id = $1 returning id", [
        noteId,
        JSON.stringify({ front: "X", back: "Y" }),
      ]),
    );
    expect(updated).toEqual([]);
    const made = await suggest(vera, {
      action: "edit",
      noteId,
      fields: { front: "Heart", back: "A muscular pump" },
      rationale: "More precise",
    });
    expect(made).toMatchObject({ status: "pending", deck_id: deck, base_version: 1, author_id: vera.id });
  });

  test("editors may suggest too, as members", async () => {
    const made = await suggest(ed, {
      action: "create",
      deckId: deck,
      kind: "basic",
      fields: { front: "Q", back: "A" },
    });
    expect(made.status).toBe("pending");
  });

  test("a stranger may suggest to a public deck only when it takes suggestions from the public", async () => {
    const { noteId } = await addNote(db, olga, publicDeck, basic("Open", "Note"));
    const edit = { action: "edit" as const, noteId, fields: { front: "Open", back: "Better" } };
    expect(await failure(suggest(pat, edit))).toMatchObject({ code: "42501" });
    await setSuggestionsFrom(publicDeck, "public");
    expect((await suggest(pat, edit)).status).toBe("pending");
    await setSuggestionsFrom(publicDeck, "members");
  });

  test("a stranger cannot see or suggest to a private deck", async () => {
    expect(
      await failure(suggest(pat, { action: "create", deckId: deck, kind: "basic", fields: { front: "Q", back: "A" } })),
    ).toMatchObject({ code: "PT404", detail: "deck_id" });
  });

  test("nobody may suggest to a deck that takes no suggestions", async () => {
    const closed = await createDeck(db, olga, { name: "Closed" });
    await addMember(db, olga, closed, vera, "viewer");
    await setSuggestionsFrom(closed, "nobody");
    expect(
      await failure(
        suggest(vera, { action: "create", deckId: closed, kind: "basic", fields: { front: "Q", back: "A" } }),
      ),
    ).toMatchObject({ code: "42501" });
  });

  test("only the owner chooses who may suggest", async () => {
    const rows = await actAs(db, ed, (tx) =>
      tx.query("update decks set suggestions_from = 'nobody' where id = $1 returning id", [deck]),
    );
    expect(rows).toEqual([]);
    expect(only(await db.query<{ s: string }>("select suggestions_from as s from decks where id = $1", [deck])).s).toBe(
      "members",
    );
  });
});

describe("what a suggestion may hold", () => {
  test("fields are checked as a note's are, and nothing is stored when they fail", async () => {
    const before = await db.query("select count(*)::int as n from note_suggestions");
    const long = "x".repeat(20001);
    expect(
      await failure(
        suggest(vera, { action: "create", deckId: deck, kind: "basic", fields: { front: long, back: "" } }),
      ),
    ).toMatchObject({ code: "23514", constraint: "notes_field_length" });
    expect(
      await failure(suggest(vera, { action: "create", deckId: deck, kind: "cloze", fields: { text: "no deletion" } })),
    ).toMatchObject({ code: "23514", constraint: "notes_cloze_required" });
    expect(
      await failure(
        suggest(vera, {
          action: "create",
          deckId: deck,
          kind: "basic",
          fields: { front: "Q", back: "A" },
          tags: ["a b"],
        }),
      ),
    ).toMatchObject({ code: "23514", constraint: "notes_tags_format" });
    expect(await db.query("select count(*)::int as n from note_suggestions")).toEqual(before);
    expect(await db.query("select count(*)::int as n from notes where fields ->> 'front' = $1", [long])).toEqual([
      { n: 0 },
    ]);
  });

  test("a rationale is at most 1,000 characters", async () => {
    expect(
      await failure(
        suggest(vera, {
          action: "create",
          deckId: deck,
          kind: "basic",
          fields: { front: "Q", back: "A" },
          rationale: "r".repeat(1001),
        }),
      ),
    ).toMatchObject({ code: "22023", detail: "rationale" });
  });

  test("an edit that changes nothing is refused", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Same", "Same"));
    expect(
      await failure(suggest(vera, { action: "edit", noteId, fields: { front: "Same", back: "Same" } })),
    ).toMatchObject({ code: "22023", detail: "fields" });
  });

  test("an author has at most 20 suggestions a minute", async () => {
    const author = await createUser(db);
    const own = await createDeck(db, olga, { name: "Rate" });
    await addMember(db, olga, own, author, "viewer");
    await actAs(db, author, async (tx) => {
      for (let i = 0; i < 20; i++)
        await suggestIn(tx, { action: "create", deckId: own, kind: "basic", fields: { front: `Q${i}`, back: "A" } });
    });
    expect(
      await failure(
        suggest(author, { action: "create", deckId: own, kind: "basic", fields: { front: "Q", back: "A" } }),
      ),
    ).toMatchObject({ code: "PT413", detail: "rate" });
  });

  test("an author has at most 100 pending suggestions per deck", async () => {
    const author = await createUser(db);
    const own = await createDeck(db, olga, { name: "Pending" });
    await addMember(db, olga, own, author, "viewer");
    // Made over the last hour, so the per-minute limit is not what stops the next.
    await db.query(
      `insert into note_suggestions (deck_id, author_id, action, kind, fields, tags, created_at)
       select $1, $2, 'create', 'basic', '{"front":"Q","back":"A"}', '{}', now() - interval '1 hour'
       from generate_series(1, 100)`,
      [own, author.id],
    );
    expect(
      await failure(
        suggest(author, { action: "create", deckId: own, kind: "basic", fields: { front: "Q", back: "A" } }),
      ),
    ).toMatchObject({ code: "PT413", detail: "pending" });
  });
});

describe("reviewing", () => {
  test("accepting an edit updates the note as the reviewer, the suggester its co-author", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Lung", "Air", ["organ"]));
    const s = await suggest(vera, {
      action: "edit",
      noteId,
      fields: { front: "Lung", back: "Gas exchange" },
      tags: ["organ", "resp"],
    });
    const [accepted] = await review(olga, [s.id], "accept");
    expect(accepted).toMatchObject({ status: "accepted", reviewer_id: olga.id });
    expect(await noteOf(noteId)).toMatchObject({
      version: 2,
      fields: { back: "Gas exchange" },
      tags: ["organ", "resp"],
    });
    const authors = await db.query<{ version: number; author_id: string; co_author_id: string }>(
      "select version, author_id, co_author_id from note_history where note_id = $1 order by version",
      [noteId],
    );
    expect(authors.at(-1)).toEqual({ version: 2, author_id: olga.id, co_author_id: vera.id });
  });

  test("accepting a new note adds it and links the suggestion to it", async () => {
    const s = await suggest(vera, {
      action: "create",
      deckId: deck,
      kind: "basic",
      fields: { front: "New", back: "One" },
    });
    const [accepted] = await review(ed, [s.id], "accept");
    expect(accepted?.note_id).toBeTruthy();
    expect(await noteOf(accepted?.note_id ?? "")).toMatchObject({ fields: { front: "New", back: "One" } });
    const cards = await db.query("select id from cards where note_id = $1", [accepted?.note_id]);
    expect(cards).toHaveLength(1);
  });

  test("accepting a deletion deletes the note and closes the note's other suggestions", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Old", "Wrong"));
    const del = await suggest(vera, { action: "delete", noteId, rationale: "Duplicate" });
    const other = await suggest(ed, { action: "edit", noteId, fields: { front: "Old", back: "Right" } });
    await review(olga, [del.id], "accept");
    expect(await noteOf(noteId)).toBeUndefined();
    expect(await suggestionOf(del.id)).toMatchObject({ status: "accepted" });
    expect(await suggestionOf(other.id)).toMatchObject({ status: "closed", closed_because: "note_deleted" });
  });

  test("rejecting keeps the note and records the reason", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Kidney", "Filter"));
    const s = await suggest(vera, { action: "edit", noteId, fields: { front: "Kidney", back: "Nope" } });
    await review(olga, [s.id], "reject", "Not accurate");
    expect(await suggestionOf(s.id)).toMatchObject({ status: "rejected", review_reason: "Not accurate" });
    expect(await noteOf(noteId)).toMatchObject({ version: 1, fields: { back: "Filter" } });
  });

  test("an edit of a note changed since applies only the fields it changed", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Liver", "Bile", ["a"]));
    const s = await suggest(vera, {
      action: "edit",
      noteId,
      fields: { front: "Liver", back: "Bile, glycogen" },
      tags: ["a", "b"],
    });
    await actAs(db, ed, (tx) =>
      tx.query("update notes set fields = $2, tags = $3, version = 1 where id = $1", [
        noteId,
        JSON.stringify({ front: "The liver", back: "Bile" }),
        ["a", "c"],
      ]),
    );
    await review(olga, [s.id], "accept");
    expect(await noteOf(noteId)).toMatchObject({
      version: 3,
      fields: { front: "The liver", back: "Bile, glycogen" },
      tags: ["a", "c", "b"],
    });
  });

  test("a field both changed is a conflict until the reviewer edits the suggestion", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Brain", "CNS"));
    const s = await suggest(vera, {
      action: "edit",
      noteId,
      fields: { front: "Brain", back: "Central nervous system" },
    });
    await actAs(db, ed, (tx) =>
      tx.query("update notes set fields = $2, version = 1 where id = $1", [
        noteId,
        JSON.stringify({ front: "Brain", back: "The CNS" }),
      ]),
    );
    const error = await failure(review(olga, [s.id], "accept"));
    expect(error.code).toBe("PT409");
    expect(JSON.parse(error.detail ?? "")).toEqual({ conflicts: [{ id: s.id, fields: ["back"] }] });
    expect(await suggestionOf(s.id)).toMatchObject({ status: "pending" });
    const resolved = { front: "Brain", back: "The central nervous system" };
    await review(olga, [s.id], "accept", null, { [s.id]: { fields: resolved } });
    expect(await noteOf(noteId)).toMatchObject({ version: 3, fields: resolved });
  });

  test("a batch is all or nothing: one id that is not pending refuses it", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Spleen", "Blood"));
    const a = await suggest(vera, { action: "edit", noteId, fields: { front: "Spleen", back: "Blood filter" } });
    const b = await suggest(vera, { action: "create", deckId: deck, kind: "basic", fields: { front: "B", back: "B" } });
    await review(olga, [b.id], "reject");
    const error = await failure(review(olga, [a.id, b.id], "accept"));
    expect(error).toMatchObject({ code: "PT409" });
    expect(JSON.parse(error.detail ?? "")).toEqual({ suggestions: [{ id: b.id, status: "rejected" }] });
    expect(await suggestionOf(a.id)).toMatchObject({ status: "pending" });
    expect(await noteOf(noteId)).toMatchObject({ version: 1 });
  });

  test("a batch with an unknown id changes nothing", async () => {
    const a = await suggest(vera, { action: "create", deckId: deck, kind: "basic", fields: { front: "C", back: "C" } });
    expect(await failure(review(olga, [a.id, crypto.randomUUID()], "accept"))).toMatchObject({ code: "PT404" });
    expect(await suggestionOf(a.id)).toMatchObject({ status: "pending", note_id: null });
  });

  test("only maintainers review; the author may withdraw", async () => {
    const a = await suggest(vera, { action: "create", deckId: deck, kind: "basic", fields: { front: "D", back: "D" } });
    expect(await failure(review(vera, [a.id], "accept"))).toMatchObject({ code: "42501" });
    expect(await failure(review(pat, [a.id], "accept"))).toMatchObject({ code: "PT404" });
    expect(await failure(actAs(db, ed, (tx) => tx.query("select withdraw_suggestion($1)", [a.id])))).toMatchObject({
      code: "PT404",
    });
    await actAs(db, vera, (tx) => tx.query("select withdraw_suggestion($1)", [a.id]));
    expect(await suggestionOf(a.id)).toMatchObject({ status: "closed", closed_because: "withdrawn" });
  });

  test("200 suggestions at most per review", async () => {
    const ids = Array.from({ length: 201 }, () => crypto.randomUUID());
    expect(await failure(review(olga, ids, "reject"))).toMatchObject({ code: "22023", detail: "ids" });
  });
});

describe("closing", () => {
  test("a removed member's pending suggestions close", async () => {
    const member = await createUser(db);
    await addMember(db, olga, deck, member, "viewer");
    const s = await suggest(member, {
      action: "create",
      deckId: deck,
      kind: "basic",
      fields: { front: "E", back: "E" },
    });
    await actAs(db, olga, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, member.id]),
    );
    expect(await suggestionOf(s.id)).toMatchObject({ status: "closed", closed_because: "not_allowed" });
  });

  test("a deck switching to nobody closes its pending suggestions", async () => {
    const own = await createDeck(db, olga, { name: "Switch" });
    await addMember(db, olga, own, vera, "viewer");
    const s = await suggest(vera, { action: "create", deckId: own, kind: "basic", fields: { front: "F", back: "F" } });
    await setSuggestionsFrom(own, "nobody");
    expect(await suggestionOf(s.id)).toMatchObject({ status: "closed", closed_because: "not_allowed" });
  });
});

describe("who reads suggestions", () => {
  test("the author and the deck's maintainers, not its other members", async () => {
    const s = await suggest(vera, { action: "create", deckId: deck, kind: "basic", fields: { front: "G", back: "G" } });
    const other = await createUser(db);
    await addMember(db, olga, deck, other, "viewer");
    const read = (user: User) =>
      actAs(db, user, (tx) => tx.query<{ id: string }>("select id from note_suggestions where id = $1", [s.id]));
    expect(await read(vera)).toHaveLength(1);
    expect(await read(olga)).toHaveLength(1);
    expect(await read(ed)).toHaveLength(1);
    expect(await read(other)).toHaveLength(0);
    expect(await read(pat)).toHaveLength(0);
    expect(
      await failure(actAs(db, other, (tx) => tx.query("select * from pending_suggestions($1)", [deck]))),
    ).toMatchObject({
      code: "42501",
    });
  });

  test("nobody writes suggestions directly", async () => {
    const error = await failure(
      actAs(db, vera, (tx) =>
        tx.query(
          `insert into note_suggestions (deck_id, author_id, action, kind, fields, tags) values ($1, $2, 'create', 'basic', '{}', '{}')`,
          [deck, vera.id],
        ),
      ),
    );
    expect(error.code).toBe("42501");
  });

  test("the review queue shows the note as it is now and whether it changed since", async () => {
    const own = await createDeck(db, olga, { name: "Queue" });
    await addMember(db, olga, own, vera, "viewer");
    const { noteId } = await addNote(db, olga, own, basic("Q1", "A1"));
    await suggest(vera, { action: "edit", noteId, fields: { front: "Q1", back: "A2" } });
    await actAs(db, olga, (tx) =>
      tx.query("update notes set fields = $2, version = 1 where id = $1", [
        noteId,
        JSON.stringify({ front: "Q1!", back: "A1" }),
      ]),
    );
    const rows = await actAs(db, olga, (tx) =>
      tx.query<{ author_name: string; changed_since: boolean; current_fields: object; base_fields: object }>(
        "select * from pending_suggestions($1)",
        [own],
      ),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        author_name: "Vera",
        changed_since: true,
        current_fields: { front: "Q1!", back: "A1" },
        base_fields: { front: "Q1", back: "A1" },
      }),
    ]);
  });
});
