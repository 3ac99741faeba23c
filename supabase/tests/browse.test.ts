import { parseSearch } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase } from "./support/database.js";
import {
  type AddedNote,
  addMember,
  basic,
  cloze,
  createDeck,
  failure,
  insertNote,
  reversed,
  reviewDue,
  setState,
  type User,
} from "./support/study-fixtures.js";

// browse_notes (docs/product.md §3, "The browser"): one sorted page of a
// deck's notes or cards with the caller's own schedules. Every expected order
// below is worked out by hand from the schedules seeded here.

let db: Database;
let olga: User; // owns the deck and studies it
let ed: User; // edits it and studies it on his own schedules
let deck: string;
let notes: Record<Name, AddedNote>;
type Name = "alpha" | "bravo" | "charlie" | "delta" | "echo";

const day = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * day).toISOString();

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed] = await Promise.all([createUser(db, { displayName: "Olga" }), createUser(db, { displayName: "Ed" })]);
  deck = await createDeck(db, olga, { name: "Greek letters", isPublic: true });
  await addMember(db, olga, deck, ed, "editor");
  notes = await actAs(db, olga, async (tx) => ({
    alpha: await insertNote(tx, deck, basic("Alpha", "first", ["b"])),
    bravo: await insertNote(tx, deck, basic("bravo", "second", ["a"])),
    charlie: await insertNote(tx, deck, reversed("Charlie", "third")),
    delta: await insertNote(tx, deck, cloze("{{c1::Delta}} {{c2::dx}}")),
    echo: await insertNote(tx, deck, basic("echo", "fifth")),
  }));
  const card = (name: Name, ordinal = 1) => notes[name].cardIds[ordinal - 1] as string;
  const review = (due: number, ivl: number, lapses: number, reps: number, d: number, s: number, reviewed: number) => ({
    ...reviewDue(daysFromNow(due)),
    scheduled_days: ivl,
    lapses,
    reps,
    difficulty: d,
    stability: s,
    last_review: daysFromNow(-reviewed),
  });
  // A member's schedule of a card, made if it is not there yet, then set.
  const schedule = async (userId: string, cardId: string, patch: Parameters<typeof setState>[3]) => {
    await db.query(
      `insert into card_states (user_id, card_id, deck_id, note_id, ordinal)
       select $1, c.id, c.deck_id, c.note_id, c.ordinal from cards c where c.id = $2
       on conflict (user_id, card_id) do nothing`,
      [userId, cardId],
    );
    await setState(db, userId, cardId, patch);
  };
  await schedule(olga.id, card("alpha"), review(5, 10, 1, 5, 4, 10, 3));
  await schedule(olga.id, card("bravo"), review(-1, 2, 4, 9, 8.2, 2, 1));
  await schedule(olga.id, card("charlie"), review(20, 30, 0, 3, 1, 40, 10));
  await schedule(olga.id, card("delta"), review(2, 3, 2, 4, 5.5, 3, 1));
  await schedule(olga.id, card("delta", 2), { ...review(1, 5, 3, 6, 5.5, 5, 4), suspended: true });
  // Ed's own schedule, which never shows in Olga's rows.
  await schedule(ed.id, card("echo"), review(-10, 99, 50, 60, 9, 1, 30));
  // One card of a two-card note flagged red, and another answered Hard today: the
  // searches for them must tell the card from its sibling.
  await setState(db, olga.id, card("delta"), { flag: 1 });
  await db.query(
    `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
       elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
     values ($1, $2, gen_random_uuid(), 2, 'review', now() + interval '20 days', 40, 1, 10, 30, now(), 4000, '{}')`,
    [olga.id, card("charlie")],
  );
  // Added a day apart, alpha first; edited the other way round.
  await db.exec("alter table notes disable trigger user");
  const order: Name[] = ["alpha", "bravo", "charlie", "delta", "echo"];
  for (const [at, name] of order.entries()) {
    await db.query(
      "update notes set created_at = now() - make_interval(days => 10 - $2::int), updated_at = now() - make_interval(days => $2::int) where id = $1",
      [notes[name].noteId, at],
    );
  }
  await db.exec("alter table notes enable trigger user");
});
afterAll(() => db.close());

interface Row {
  id: string;
  card_id?: string;
  template?: string;
  sort_field: string;
  card_count: number;
  deck_name: string;
  my_tags: string[];
  due: string | null;
  interval: number | null;
  difficulty: number | null;
  stability: number | null;
  retrievability: number | null;
  lapses: number | null;
  reviews: number | null;
}
interface Page {
  rows: Row[];
  total: number | null;
  capped: boolean | null;
}
interface Options {
  query?: string;
  mode?: "notes" | "cards";
  sort?: string;
  descending?: boolean;
  limit?: number;
  offset?: number;
  kind?: string;
  tags?: string[];
}

async function browse(options: Options = {}, user: User | typeof anon = olga): Promise<Page> {
  const [row] = await actAs(db, user, (tx) =>
    tx.query<{ page: Page }>("select browse_notes($1, $2, $3, $4, $5, $6, $7, $8, null, $9) as page", [
      deck,
      options.query ? JSON.stringify(parseSearch(options.query)) : null,
      options.mode ?? "notes",
      options.sort ?? "created",
      options.descending ?? true,
      options.limit ?? 100,
      options.offset ?? 0,
      options.kind ?? null,
      options.tags ?? null,
    ]),
  );
  return (row as { page: Page }).page;
}
const nameOf = (id: string) => (Object.keys(notes) as Name[]).find((name) => notes[name].noteId === id);
const names = async (options: Options, user?: User | typeof anon) =>
  (await browse(options, user)).rows.map((row) => nameOf(row.id));
/** Names, with ties broken by id as the database does (uuids compare as their hex text). */
const byId = (dir: "asc" | "desc", ...tied: Name[]) =>
  [...tied].sort((a, b) => notes[a].noteId.localeCompare(notes[b].noteId) * (dir === "asc" ? 1 : -1));

describe("notes mode", () => {
  test("a row has the note, its cards count and the aggregates of the caller's own schedules", async () => {
    const { rows, total, capped } = await browse({ sort: "sort_field", descending: false });
    expect({ total, capped }).toEqual({ total: 5, capped: false });
    const delta = rows.find((row) => row.id === notes.delta.noteId);
    // The earliest due among cards not suspended; averages of interval, difficulty, stability; sums.
    expect(delta).toMatchObject({
      sort_field: "Delta dx",
      card_count: 2,
      deck_name: "Greek letters",
      interval: 4,
      lapses: 5,
      reviews: 10,
      stability: 4,
      difficulty: 0.5,
    });
    expect(Date.parse(delta?.due ?? "")).toBeCloseTo(Date.parse(daysFromNow(2)), -5);
    const echo = rows.find((row) => row.id === notes.echo.noteId);
    expect(echo).toMatchObject({ due: null, interval: null, difficulty: null, retrievability: null, lapses: 0 });
  });

  test.each([
    ["sort_field", false, ["alpha", "bravo", "charlie", "delta", "echo"]],
    ["sort_field", true, ["echo", "delta", "charlie", "bravo", "alpha"]],
    ["created", false, ["alpha", "bravo", "charlie", "delta", "echo"]],
    ["created", true, ["echo", "delta", "charlie", "bravo", "alpha"]],
    ["modified", false, ["echo", "delta", "charlie", "bravo", "alpha"]],
    ["due", false, ["bravo", "delta", "alpha", "charlie", "echo"]],
    ["due", true, ["charlie", "alpha", "delta", "bravo", "echo"]],
    ["interval", false, ["bravo", "delta", "alpha", "charlie", "echo"]],
    ["interval", true, ["charlie", "alpha", "delta", "bravo", "echo"]],
    ["difficulty", false, ["charlie", "alpha", "delta", "bravo", "echo"]],
    ["stability", true, ["charlie", "alpha", "delta", "bravo", "echo"]],
    ["reviews", true, ["delta", "bravo", "alpha", "charlie", "echo"]],
    ["reviews", false, ["echo", "charlie", "alpha", "bravo", "delta"]],
  ] as const)("by %s (descending: %s)", async (sort, descending, expected) => {
    expect(await names({ sort, descending })).toEqual(expected);
  });

  test("by lapses, ties by id in the same direction", async () => {
    expect(await names({ sort: "lapses", descending: true })).toEqual([
      "delta",
      "bravo",
      "alpha",
      ...byId("desc", "charlie", "echo"),
    ]);
  });

  test("by retrievability: the longest since review for its stability first", async () => {
    // t/S: bravo 1/2, alpha 3/10, charlie 10/40; delta averages R at 1/3 and 4/5.
    const decay = 0.1542;
    const factor = 0.9 ** (-1 / decay) - 1;
    const r = (ratio: number) => (1 + factor * ratio) ** -decay;
    const values: [Name, number][] = [
      ["alpha", r(3 / 10)],
      ["bravo", r(1 / 2)],
      ["charlie", r(10 / 40)],
      ["delta", (r(1 / 3) + r(4 / 5)) / 2],
    ];
    const expected = values.sort((a, b) => a[1] - b[1]).map(([name]) => name);
    const { rows } = await browse({ sort: "retrievability", descending: false });
    expect(rows.map((row) => nameOf(row.id))).toEqual([...expected, "echo"]);
    expect(rows[0]?.retrievability).toBeCloseTo(values[0]?.[1] ?? 0, 6);
  });

  test("by tags, then by field", async () => {
    expect(await names({ sort: "tags", descending: false })).toEqual([
      ...byId("asc", "charlie", "delta", "echo"),
      "bravo",
      "alpha",
    ]);
    expect(await names({ sort: "field:back", descending: false })).toEqual([
      "echo",
      "alpha",
      "bravo",
      "charlie",
      "delta",
    ]);
  });

  test("another member's schedules never appear: Ed's rows are his own", async () => {
    const { rows } = await browse({ sort: "lapses", descending: true }, ed);
    expect(nameOf(rows[0]?.id ?? "")).toBe("echo");
    expect(rows[0]).toMatchObject({ lapses: 50, reviews: 60, interval: 99 });
    expect(rows.slice(1).every((row) => row.lapses === 0 && row.due === null)).toBe(true);
  });

  test("a signed-out visitor of the public deck gets the notes without any schedule", async () => {
    const { rows, total } = await browse({ sort: "due", descending: false }, anon);
    expect(total).toBe(5);
    expect(rows.every((row) => row.due === null && row.lapses === null && row.reviews === null)).toBe(true);
    expect(rows.map((row) => row.card_count).sort()).toEqual([1, 1, 1, 2, 2]);
  });
});

describe("cards mode", () => {
  const cardName = (row: Row) => `${nameOf(row.id)}:${row.template}`;
  const cards = async (options: Options, user?: User) =>
    (await browse({ ...options, mode: "cards" }, user)).rows.map(cardName);

  test("one row per card, with its own schedule and template name", async () => {
    const { rows, total } = await browse({ mode: "cards", sort: "sort_field", descending: false });
    expect(total).toBe(7);
    const listed = rows.map(cardName);
    expect(listed.slice(0, 2)).toEqual(["alpha:Card 1", "bravo:Card 1"]);
    expect(listed.slice(2, 4).sort()).toEqual(["charlie:Card 1", "charlie:Card 2"]);
    expect(listed.slice(4, 6).sort()).toEqual(["delta:Cloze 1", "delta:Cloze 2"]);
    expect(listed[6]).toBe("echo:Card 1");
    const delta2 = rows.find((row) => row.card_id === notes.delta.cardIds[1]);
    expect(delta2).toMatchObject({ template: "Cloze 2", interval: 5, lapses: 3, reviews: 6, stability: 5 });
    expect(delta2?.difficulty).toBeCloseTo(0.5, 6);
  });

  test("by lapses descending: the hand-known card first", async () => {
    const rows = await cards({ sort: "lapses", descending: true });
    expect(rows.slice(0, 4)).toEqual(["bravo:Card 1", "delta:Cloze 2", "delta:Cloze 1", "alpha:Card 1"]);
    expect(rows).toHaveLength(7);
  });

  test("by due ascending, cards not yet studied last", async () => {
    const rows = await cards({ sort: "due", descending: false });
    expect(rows.slice(0, 5)).toEqual([
      "bravo:Card 1",
      "delta:Cloze 2",
      "delta:Cloze 1",
      "alpha:Card 1",
      "charlie:Card 1",
    ]);
    expect(rows.slice(5).sort()).toEqual(["charlie:Card 2", "echo:Card 1"]);
  });

  test.each([
    // Notes mode keeps a note when any of its cards matches; cards mode keeps the matching cards only.
    ["is:suspended", ["delta"], ["delta:Cloze 2"]],
    [
      "-is:suspended",
      ["alpha", "bravo", "charlie", "echo"],
      ["alpha:Card 1", "bravo:Card 1", "charlie:Card 1", "charlie:Card 2", "delta:Cloze 1", "echo:Card 1"],
    ],
    ["is:new", ["charlie", "echo"], ["charlie:Card 2", "echo:Card 1"]],
    ["prop:ivl>4", ["alpha", "charlie", "delta"], ["alpha:Card 1", "charlie:Card 1", "delta:Cloze 2"]],
    ["prop:lapses>2", ["bravo", "delta"], ["bravo:Card 1", "delta:Cloze 2"]],
    ["card:2", ["charlie", "delta"], ["charlie:Card 2", "delta:Cloze 2"]],
    // Only bravo is due today: delta's cards are due tomorrow and after.
    ["is:due", ["bravo"], ["bravo:Card 1"]],
    [
      "-is:due",
      ["alpha", "charlie", "delta", "echo"],
      ["alpha:Card 1", "charlie:Card 1", "charlie:Card 2", "delta:Cloze 1", "delta:Cloze 2", "echo:Card 1"],
    ],
    ["flag:1", ["delta"], ["delta:Cloze 1"]],
    ["rated:1:2", ["charlie"], ["charlie:Card 1"]],
    [
      "-rated:1",
      ["alpha", "bravo", "delta", "echo"],
      ["alpha:Card 1", "bravo:Card 1", "charlie:Card 2", "delta:Cloze 1", "delta:Cloze 2", "echo:Card 1"],
    ],
  ])("%s: notes mode finds %j, cards mode the cards %j", async (query, inNotes, inCards) => {
    expect((await names({ query, sort: "sort_field", descending: false })).sort()).toEqual(inNotes);
    const page = await browse({ query, mode: "cards", sort: "sort_field", descending: false });
    expect(page.rows.map(cardName).sort()).toEqual(inCards);
    expect(page.total).toBe(inCards.length);
  });

  test("cid: in cards mode is that card, not its siblings", async () => {
    expect(await cards({ query: `cid:${notes.delta.cardIds[0]}` })).toEqual(["delta:Cloze 1"]);
  });

  test("Ed's cards mode shows his schedule of echo, not Olga's", async () => {
    expect((await cards({ sort: "lapses", descending: true }, ed))[0]).toBe("echo:Card 1");
  });
});

describe("search, filters and paging", () => {
  test("pages of two follow one another in the same order as the whole list", async () => {
    const whole = await names({ sort: "due", descending: false });
    const pages = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await browse({ sort: "due", descending: false, limit: 2, offset });
      expect(page.total).toBe(offset === 0 ? 5 : null);
      pages.push(...page.rows.map((row) => nameOf(row.id)));
    }
    expect(pages).toEqual(whole);
  });

  test("a search sorts and pages together", async () => {
    // prop:lapses>0 holds for alpha, bravo, delta; by due: bravo, delta, alpha.
    const first = await browse({ query: "prop:lapses>0", sort: "due", descending: false, limit: 2 });
    expect(first.total).toBe(3);
    expect(first.rows.map((row) => nameOf(row.id))).toEqual(["bravo", "delta"]);
    expect(await names({ query: "prop:lapses>0", sort: "due", descending: false, limit: 2, offset: 2 })).toEqual([
      "alpha",
    ]);
    expect(await names({ query: "-first -second", sort: "sort_field", descending: false })).toEqual([
      "charlie",
      "delta",
      "echo",
    ]);
    expect(await names({ query: "tag:a or tag:b", sort: "sort_field", descending: true })).toEqual(["bravo", "alpha"]);
  });

  test("the browser's filters: kind and tags", async () => {
    expect(await names({ kind: "cloze" })).toEqual(["delta"]);
    expect(await names({ tags: ["b"] })).toEqual(["alpha"]);
  });

  test.each([
    ["a page of 0", { limit: 0 }],
    ["a page of 501", { limit: 501 }],
    ["a negative offset", { offset: -1 }],
    ["an unknown mode", { mode: "decks" as "notes" }],
    ["an unknown order", { sort: "sort_field; drop table notes" }],
    ["a field with a quote", { sort: 'field:a"b' }],
  ])("%s is refused with 22023", async (_what, options) => {
    expect((await failure(browse(options))).code).toBe("22023");
  });

  test("a page of 500 is allowed", async () => {
    expect((await browse({ limit: 500 })).rows).toHaveLength(5);
  });

  test("a malformed search is refused", async () => {
    const error = await failure(
      actAs(db, olga, (tx) => tx.query("select browse_notes($1, $2)", [deck, JSON.stringify({ op: "nope" })])),
    );
    expect(error.code).toBe("22023");
  });
});
