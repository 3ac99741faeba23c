import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addMember,
  addNote,
  addNotes,
  basic,
  createDeck,
  failure,
  reversed,
  stateOf,
  type User,
} from "./support/study-fixtures.js";

// Acting on the card being studied (docs/product.md §2 study screen): bury_cards
// and set_flag change only the caller's own schedules, of cards they study.

let db: Database;
let owner: User;
let member: User;
let stranger: User;
let deck: string;
let cards: string[];
let pair: { noteId: string; cardIds: string[] };

beforeAll(async () => {
  db = await openTestDatabase();
  owner = await createUser(db);
  member = await createUser(db);
  stranger = await createUser(db);
  deck = await createDeck(db, owner);
  await addMember(db, owner, deck, member);
  const notes = await addNotes(db, owner, deck, [basic("One", "1"), basic("Two", "2"), basic("Three", "3")]);
  cards = notes.map((note) => note.cardIds[0] as string);
  pair = await addNote(db, owner, deck, reversed("Front", "Back"));
});
afterAll(() => db.close());

const bury = (user: User, ids: string[], buried = true) =>
  actAs(db, user, (tx) =>
    tx.query<{ card_id: string; version: number; buried_until: Date | null }>(
      "select * from bury_cards(p_card_ids => $1::uuid[], p_buried => $2)",
      [ids, buried],
    ),
  );
const flag = (user: User, ids: string[], value: number) =>
  actAs(db, user, async (tx) => {
    const rows = await tx.query<{ changed: number }>("select set_flag($1::uuid[], $2::smallint) as changed", [
      ids,
      value,
    ]);
    return rows[0]?.changed;
  });
const queueIds = (tx: Queryable, now: Date | null = null) =>
  tx
    .query<{ card_id: string }>("select card_id from study_queue(p_deck_id => $1, p_now => $2)", [deck, now])
    .then((rows) => rows.map((row) => row.card_id));
const state = async (user: User, card: string) => {
  const row = await stateOf(db, user.id, card);
  if (!row) throw new Error("no schedule");
  return row;
};

describe("bury_cards", () => {
  test("buries the caller's card until their next study day starts, and bumps its version", async () => {
    const card = cards[0] as string;
    const before = await state(member, card);
    const [row] = await bury(member, [card]);
    const day = await db.query<{ day_end: Date }>(
      "select d.day_end from profiles p cross join lateral private.study_day(p.timezone, p.day_starts_at, now()) d where p.id = $1",
      [member.id],
    );
    const after = await state(member, card);
    expect(after.buried_until).toEqual(day[0]?.day_end);
    expect(after.version).toBe(before.version + 1);
    expect(row).toEqual({ card_id: card, version: after.version, buried_until: after.buried_until });
    // the owner's schedule of the same card is untouched
    expect((await state(owner, card)).buried_until).toBeNull();
  });

  test("a buried card is out of today's queue and back when the next study day starts", async () => {
    const card = cards[0] as string;
    const until = (await state(member, card)).buried_until as Date;
    const [today, tomorrow] = await actAs(db, member, async (tx) => [await queueIds(tx), await queueIds(tx, until)]);
    expect(today).not.toContain(card);
    expect(today).toContain(cards[1]);
    expect(tomorrow).toContain(card);
  });

  test("an answer computed before the bury is refused as stale", async () => {
    const card = cards[0] as string;
    const version = (await state(member, card)).version - 1;
    const error = await failure(
      actAs(db, member, (tx) =>
        tx.query(
          `select record_review($1, gen_random_uuid(), 3::smallint, now(), 1000, $2, 'review', now() + interval '3 days',
             3, 5, 0, 3, 0, 1, 0)`,
          [card, version],
        ),
      ),
    );
    expect(error.code).toBe("PT409");
  });

  test("unbury brings the card back today and bumps the version again", async () => {
    const card = cards[0] as string;
    const before = await state(member, card);
    const [row] = await bury(member, [card], false);
    expect(row).toEqual({ card_id: card, version: before.version + 1, buried_until: null });
    expect(await actAs(db, member, (tx) => queueIds(tx))).toContain(card);
  });

  test("buries every card of a note when given them all", async () => {
    await bury(member, pair.cardIds);
    const queue = await actAs(db, member, (tx) => queueIds(tx));
    for (const card of pair.cardIds) expect(queue).not.toContain(card);
    await bury(member, pair.cardIds, false);
  });

  test("a card of a deck the caller does not study is refused, and nothing changes", async () => {
    const card = cards[1] as string;
    const error = await failure(bury(stranger, [card]));
    expect(error.code).toBe("PT404");
    expect(error.detail).toBe("card_ids");
    const mixed = await failure(bury(member, [card, "00000000-0000-4000-8000-000000000000"]));
    expect(mixed.code).toBe("PT404");
    expect((await state(member, card)).buried_until).toBeNull();
    expect((await state(owner, card)).buried_until).toBeNull();
  });

  test("an empty, missing or over-long list and a missing answer are refused", async () => {
    expect((await failure(bury(member, []))).detail).toBe("card_ids");
    const many = Array.from({ length: 1001 }, () => cards[1] as string);
    const tooMany = await failure(bury(member, many));
    expect([tooMany.code, tooMany.detail]).toEqual(["22023", "card_ids"]);
    const noAnswer = await failure(
      actAs(db, member, (tx) => tx.query("select * from bury_cards($1::uuid[], null)", [[cards[1]]])),
    );
    expect([noAnswer.code, noAnswer.detail]).toEqual(["22023", "buried"]);
  });
});

describe("set_flag", () => {
  test("sets and clears the caller's flag, leaving the version and everyone else's flag", async () => {
    const card = cards[2] as string;
    const before = await state(member, card);
    expect(await flag(member, [card], 3)).toBe(1);
    expect(await flag(member, [card], 3)).toBe(0);
    const flagged = await state(member, card);
    expect(flagged.flag).toBe(3);
    expect(flagged.version).toBe(before.version);
    expect((await state(owner, card)).flag).toBe(0);
    expect(await flag(member, [card], 0)).toBe(1);
    expect((await state(member, card)).flag).toBe(0);
  });

  test("a flag outside 0-7 is refused and changes nothing", async () => {
    const card = cards[2] as string;
    await flag(member, [card], 2);
    for (const bad of [8, -1]) {
      const error = await failure(flag(member, [card], bad));
      expect([error.code, error.detail]).toEqual(["22023", "flag"]);
    }
    expect((await state(member, card)).flag).toBe(2);
    await flag(member, [card], 0);
  });

  test("another user's card is refused and stays unflagged", async () => {
    const card = cards[2] as string;
    const error = await failure(flag(stranger, [card], 1));
    expect([error.code, error.detail]).toEqual(["PT404", "card_ids"]);
    expect((await state(owner, card)).flag).toBe(0);
    expect((await state(member, card)).flag).toBe(0);
  });

  test("signed out, neither call may run", async () => {
    const error = await failure(
      db.transaction(async (tx) => {
        await tx.query("set local role anon");
        await tx.query("select set_flag($1::uuid[], 1::smallint)", [[cards[2]]]);
      }),
    );
    expect(error.code).toBe("42501");
  });
});
