import { avatarTypes, mediaTypes, transferTypes } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, createUser, openTestDatabase, probeAs } from "./support/database.js";

// Every validation rule of docs/product.md §5 that the database enforces: a bad
// value is refused with the named constraint (or argument) and changes nothing.

let db: Database;
let owner: Actor & { kind: "user" };
let deckId: string;
let noteId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  owner = await createUser(db);
  deckId = await actAs(db, owner, async (tx) => {
    const [deck] = await tx.query<{ id: string }>("insert into decks (name) values ('Rules') returning id");
    return deck?.id ?? "";
  });
  noteId = await actAs(db, owner, async (tx) => {
    const [note] = await tx.query<{ id: string }>(
      `insert into notes (deck_id, kind, fields) values ($1, 'basic', '{"front":"Q","back":"A"}') returning id`,
      [deckId],
    );
    return note?.id ?? "";
  });
});
afterAll(() => db.close());

/** Runs `sql` as the deck owner and expects the given constraint to refuse it. */
async function expectRefused(sql: string, params: unknown[], constraint: string) {
  const result = await probeAs(db, owner, (tx) => tx.query(sql, params));
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe("23514");
  expect(result.error.message).toContain(constraint);
}

async function expectAccepted(sql: string, params: unknown[]) {
  const result = await probeAs(db, owner, (tx) => tx.query(sql, params));
  if (!result.ok) throw result.error;
}

const insertDeck = "insert into decks (name, description) values ($1, $2)";
const insertNote = "insert into notes (deck_id, kind, fields, tags) values ($1, $2, $3, $4)";
const basic = (front: string, back: string) => JSON.stringify({ front, back });
const cloze = (text: string, extra = "") => JSON.stringify({ text, extra });

describe("deck name and description", () => {
  test.each([
    ["an empty name", ""],
    ["a name of spaces", "   "],
    ["a name of white space", "\t\n "],
    ["a name of 121 characters", "x".repeat(121)],
  ])("refuses %s", (_, name) => expectRefused(insertDeck, [name, ""], "decks_name_length"));

  test("accepts 120 characters, counted after trimming", () =>
    expectAccepted(insertDeck, [`  ${"x".repeat(120)}  `, ""]));

  test("refuses a description over 2,000 characters", () =>
    expectRefused(insertDeck, ["Deck", "d".repeat(2001)], "decks_description_length"));

  test("refuses renaming to an empty name", () =>
    expectRefused("update decks set name = ' ' where id = $1", [deckId], "decks_name_length"));
});

describe("notes", () => {
  test.each([
    ["an empty front", basic("", "A"), "notes_front_required"],
    ["a front of markup only", basic("<b> </b>", "A"), "notes_front_required"],
    ["a front of &nbsp; only", basic("&nbsp;", "A"), "notes_front_required"],
    ["a front over 20,000 characters", basic("q".repeat(20001), "A"), "notes_field_length"],
    ["a back over 20,000 characters", basic("Q", "a".repeat(20001)), "notes_field_length"],
    ["no back at all", JSON.stringify({ front: "Q" }), "notes_back_required"],
    ["a list where text belongs", JSON.stringify({ front: "Q", back: ["A"] }), "notes_back_required"],
    ["a number where text belongs", JSON.stringify({ front: 1, back: "A" }), "notes_fields_shape"],
    ["an unknown field", JSON.stringify({ front: "Q", back: "A", other: "x" }), "notes_fields_shape"],
  ])("refuses a basic note with %s", (_, fields, constraint) =>
    expectRefused(insertNote, [deckId, "basic", fields, []], constraint),
  );

  test.each([
    ["no deletion", cloze("plain text")],
    ["an unclosed deletion", cloze("{{c1::open")],
    ["deletion number zero", cloze("{{c0::zero}}")],
    ["a malformed opening", cloze("{{c::x}}")],
  ])("refuses a cloze note with %s", (_, fields) =>
    expectRefused(insertNote, [deckId, "cloze", fields, []], "notes_cloze_required"),
  );

  test("refuses cloze text over 20,000 characters", () =>
    expectRefused(insertNote, [deckId, "cloze", cloze(`{{c1::a}}${"x".repeat(20000)}`), []], "notes_field_length"));

  // A note's numbers become cards and schedules for every member, so one
  // note with thousands of numbers (or nested thousands deep) would stall
  // the server. The largest such notes a field can hold are refused.
  const numbered = (count: number) => Array.from({ length: count }, (_, i) => `{{c${i + 1}::a}}`).join("");
  const nested = (depth: number) =>
    `${Array.from({ length: depth }, (_, i) => `{{c${i + 1}::`).join("")}x${"}}".repeat(depth)}`;

  test.each([
    ["501 cloze numbers", numbered(501), "notes_cloze_numbers_limit"],
    ["a full field of cloze numbers (1,600 and more)", numbered(1700).slice(0, 20000), "notes_cloze_numbers_limit"],
    ["deletions nested 51 deep", `${"{{c1::".repeat(51)}x${"}}".repeat(51)}`, "notes_cloze_nesting_limit"],
    ["1,500 numbered deletions nested inside one another", nested(1500), "notes_cloze_nesting_limit"],
  ])("refuses a cloze note with %s, making no cards", async (_, text, constraint) => {
    const [before] = await db.query<{ count: string }>("select count(*) from cards where deck_id = $1", [deckId]);
    await expectRefused(insertNote, [deckId, "cloze", cloze(text), []], constraint);
    const [after] = await db.query<{ count: string }>("select count(*) from cards where deck_id = $1", [deckId]);
    expect(after).toEqual(before);
  });

  test("refuses an edit that adds a 501st cloze number", async () => {
    const [note] = await db.query<{ id: string }>(
      "insert into notes (deck_id, kind, fields) values ($1, 'cloze', $2) returning id",
      [deckId, cloze(numbered(500))],
    );
    await expectRefused(
      "update notes set fields = $2 where id = $1",
      [note?.id, cloze(numbered(501))],
      "notes_cloze_numbers_limit",
    );
    const [cards] = await db.query<{ count: number }>("select count(*)::int as count from cards where note_id = $1", [
      note?.id,
    ]);
    expect(cards?.count).toBe(500);
  });

  test("accepts 500 cloze numbers nested up to 50 deep", () =>
    expectAccepted(insertNote, [deckId, "cloze", cloze(`${numbered(450)} ${nested(50)}`), []]));

  test("accepts fields of exactly 20,000 characters", () =>
    expectAccepted(insertNote, [deckId, "basic", basic("q".repeat(20000), "a".repeat(20000)), []]));

  test.each([
    ["51 tags", Array.from({ length: 51 }, (_, i) => `t${i}`), "notes_tags_count"],
    ["an empty tag", [""], "notes_tags_format"],
    ["a tag with a space", ["two words"], "notes_tags_format"],
    ["a tag of 65 characters", ["t".repeat(65)], "notes_tags_format"],
    ["a repeated tag", ["verb", "verb"], "notes_tags_format"],
  ])("refuses %s", (_, tags, constraint) =>
    expectRefused(insertNote, [deckId, "basic", basic("Q", "A"), tags], constraint),
  );

  test("accepts 50 tags of 64 characters", () =>
    expectAccepted(insertNote, [
      deckId,
      "basic",
      basic("Q", "A"),
      Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(64, "t")),
    ]));

  test("refuses an edit that empties a field, and keeps the note as it was", async () => {
    await expectRefused("update notes set fields = $2 where id = $1", [noteId, basic("", "A")], "notes_front_required");
    const [note] = await db.query<{ fields: unknown }>("select fields from notes where id = $1", [noteId]);
    expect(note?.fields).toEqual({ front: "Q", back: "A" });
  });
});

describe("profile settings", () => {
  const update = (column: string) => `update profiles set ${column} = $1 where id = auth.uid()`;
  test.each([
    ["timezone", "Mars/Olympus", "profiles_timezone_valid"],
    ["day_starts_at", 24, "profiles_day_starts_at_range"],
    ["day_starts_at", -1, "profiles_day_starts_at_range"],
    ["desired_retention", 0.69, "profiles_desired_retention_range"],
    ["desired_retention", 0.995, "profiles_desired_retention_range"],
    ["fsrs_params", Array.from({ length: 20 }, () => 1), "profiles_fsrs_params_shape"],
    ["new_per_day", -1, "profiles_new_per_day_range"],
    ["reviews_per_day", 10000, "profiles_reviews_per_day_range"],
    ["display_name", "n".repeat(81), "profiles_display_name_length"],
  ])("refuses %s = %s", (column, value, constraint) => expectRefused(update(column), [value], constraint));

  test("accepts an IANA timezone, 21 FSRS parameters and the edge values", async () => {
    await expectAccepted(update("timezone"), ["America/Argentina/Buenos_Aires"]);
    await expectAccepted(update("fsrs_params"), [Array.from({ length: 21 }, () => 0.5)]);
    await expectAccepted(update("desired_retention"), [0.7]);
    await expectAccepted(update("day_starts_at"), [23]);
  });
});

describe("answers", () => {
  let cardId: string;
  beforeAll(async () => {
    const [card] = await db.query<{ id: string }>("select id from cards where note_id = $1", [noteId]);
    cardId = card?.id ?? "";
  });

  const review = (overrides: Record<string, unknown>) => {
    const args = {
      p_card_id: cardId,
      p_client_review_id: crypto.randomUUID(),
      p_rating: 3,
      p_reviewed_at: new Date().toISOString(),
      p_duration_ms: 4000,
      p_expected_version: 0,
      p_state: "learning",
      p_due: new Date(Date.now() + 600_000).toISOString(),
      p_stability: 2.3,
      p_difficulty: 5,
      p_elapsed_days: 0,
      p_scheduled_days: 0,
      p_learning_steps: 1,
      p_reps: 1,
      p_lapses: 0,
      ...overrides,
    };
    const names = Object.keys(args);
    return probeAs(db, owner, (tx) =>
      tx.query(
        `select * from record_review(${names.map((n, i) => `${n} => $${i + 1}`).join(", ")})`,
        Object.values(args),
      ),
    );
  };

  test.each([
    ["rating 0", { p_rating: 0 }, "rating"],
    ["rating 5", { p_rating: 5 }, "rating"],
    ["a negative duration", { p_duration_ms: -1 }, "duration_ms"],
    ["a duration over an hour", { p_duration_ms: 3_600_001 }, "duration_ms"],
    [
      "an answer 6 minutes in the future",
      { p_reviewed_at: new Date(Date.now() + 360_000).toISOString() },
      "reviewed_at",
    ],
  ])("refuses %s, naming the argument", async (_, overrides, field) => {
    const result = await review(overrides);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("22023");
      expect(result.error.detail).toBe(field);
    }
    const [logs] = await db.query<{ n: number }>("select count(*)::int as n from review_logs");
    expect(logs?.n).toBe(0);
  });

  test("accepts an answer 4 minutes in the future (clock skew)", async () => {
    const result = await review({ p_reviewed_at: new Date(Date.now() + 240_000).toISOString() });
    expect(result.ok).toBe(true);
  });
});

describe("storage limits", () => {
  test("buckets carry the size limits and file types of docs/product.md §5", async () => {
    const buckets = await db.query(
      "select id, public, file_size_limit::int as limit, allowed_mime_types from storage.buckets order by id",
    );
    expect(buckets).toEqual([
      {
        id: "avatars",
        public: false,
        limit: 2 * 1024 * 1024,
        allowed_mime_types: [...avatarTypes],
      },
      { id: "exports", public: false, limit: 200 * 1024 * 1024, allowed_mime_types: [...transferTypes] },
      { id: "imports", public: false, limit: 200 * 1024 * 1024, allowed_mime_types: [...transferTypes] },
      {
        id: "media",
        public: false,
        limit: 10 * 1024 * 1024,
        allowed_mime_types: [...mediaTypes],
      },
    ]);
  });
});
