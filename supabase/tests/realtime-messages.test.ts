import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase, service } from "./support/database.js";
import {
  addMember,
  addNote,
  addNotes,
  basic,
  createDeck,
  recordReview,
  type User,
  undoReview,
} from "./support/study-fixtures.js";

// Live updates (supabase/schemas/80_realtime.sql): statement triggers send one
// `change` broadcast per statement and private topic, `deck:<id>` for a deck's
// content and `user:<id>` for a user's own rows, naming the table, the kind of
// change and the ids; clients refetch through RLS. Read here as the rows
// realtime.send stores in realtime.messages, which Realtime delivers to the
// topic's subscribers.

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

interface Message {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payload: Record<string, unknown>;
}

/** The messages sent on `topics` from now on (topics are fresh per test: new decks and users). */
async function watch(topics: string[]) {
  const read = () =>
    db.query<Message>(
      "select id::text as id, topic, event, private, payload from realtime.messages where topic = any($1)",
      [topics],
    );
  const seen = new Set((await read()).map((message) => message.id));
  return async () => (await read()).filter((message) => !seen.has(message.id));
}

/** What a message says, as a client reads it (realtime.send adds the message's own id). */
const change = (message: Message): { topic: string; ids?: unknown; [key: string]: unknown } => {
  const { id: _id, ...rest } = message.payload;
  return { topic: message.topic, ...rest };
};
const sortIds = (ids: string[]) => [...ids].sort();

async function deckWithMember() {
  const [owner, member] = await Promise.all([createUser(db), createUser(db)]);
  const deck = await createDeck(db, owner, { name: "Neurology" });
  await addMember(db, owner, deck, member, "viewer");
  return { owner, member, deck };
}

const topicsOf = (deck: string, ...users: User[]) => [`deck:${deck}`, ...users.map((user) => `user:${user.id}`)];

describe("one message per statement and topic", () => {
  test("2,000 notes inserted in one statement are one message on the deck's topic, listing no ids", async () => {
    const { owner, member, deck } = await deckWithMember();
    const sent = await watch(topicsOf(deck, owner, member));

    await actAs(db, owner, (tx) =>
      tx.query(
        `insert into notes (deck_id, kind, fields)
         select $1, 'basic', jsonb_build_object('front', 'Question ' || i, 'back', 'Answer ' || i)
         from generate_series(1, 2000) i`,
        [deck],
      ),
    );

    const counts = await db.query<{ cards: number; states: number }>(
      `select (select count(*)::int from cards where deck_id = $1) as cards,
              (select count(*)::int from card_states where deck_id = $1) as states`,
      [deck],
    );
    // The cards and both members' schedules were made, by triggers the note insert set off.
    expect(counts).toEqual([{ cards: 2_000, states: 4_000 }]);
    expect((await sent()).map(change)).toEqual([{ topic: `deck:${deck}`, table: "notes", type: "insert", ids: null }]);
  }, 120_000);

  test("a statement touching up to 200 rows lists their ids; one over lists none", async () => {
    const { owner, deck } = await deckWithMember();
    const sent = await watch([`deck:${deck}`]);
    const insert = (count: number) =>
      actAs(db, owner, (tx) =>
        tx.query<{ id: string }>(
          `insert into notes (deck_id, kind, fields)
           select $1, 'basic', jsonb_build_object('front', 'Q' || i, 'back', 'A')
           from generate_series(1, $2::int) i returning id`,
          [deck, count],
        ),
      );
    const twoHundred = await insert(200);
    await insert(201);

    const messages = (await sent()).map(change);
    expect(messages).toHaveLength(2);
    expect(messages).toContainEqual({
      topic: `deck:${deck}`,
      table: "notes",
      type: "insert",
      ids: expect.any(Array),
    });
    const listed = messages.find((message) => message.ids !== null);
    expect(sortIds(listed?.ids as string[])).toEqual(sortIds(twoHundred.map((row) => row.id)));
    expect(messages.filter((message) => message.ids === null)).toHaveLength(1);
  });
});

describe("what a deck's members hear", () => {
  test("notes and the deck changing are told by table, kind and ids, never by their contents", async () => {
    const { owner, member, deck } = await deckWithMember();
    const sent = await watch(topicsOf(deck, owner, member));

    const [first, second] = await addNotes(db, owner, deck, [
      basic("Secret question", "Secret answer"),
      basic("Another question", "Another answer"),
    ]);
    if (!first || !second) throw new Error("no notes");
    await actAs(db, owner, (tx) =>
      tx.query('update notes set fields = \'{"front": "Edited secret", "back": "B"}\' where id = $1', [first.noteId]),
    );
    await actAs(db, owner, (tx) => tx.query("update decks set name = 'Renamed secret' where id = $1", [deck]));
    await actAs(db, owner, (tx) => tx.query("delete from notes where id = $1", [second.noteId]));

    const messages = await sent();
    // addNotes inserts one note per statement, in one transaction.
    expect(messages.map(change)).toEqual([
      { topic: `deck:${deck}`, table: "notes", type: "insert", ids: [first.noteId] },
      { topic: `deck:${deck}`, table: "notes", type: "insert", ids: [second.noteId] },
      { topic: `deck:${deck}`, table: "notes", type: "update", ids: [first.noteId] },
      { topic: `deck:${deck}`, table: "decks", type: "update", ids: [deck] },
      { topic: `deck:${deck}`, table: "notes", type: "delete", ids: [second.noteId] },
    ]);
    for (const message of messages) {
      expect(message).toMatchObject({ event: "change", private: true });
      expect(Object.keys(message.payload).sort()).toEqual(["id", "ids", "table", "type"]);
      expect(JSON.stringify(message.payload)).not.toMatch(/secret|question|answer/i);
    }
  });

  test("a note moved to another deck is an update on both decks' topics", async () => {
    const { owner, deck } = await deckWithMember();
    const other = await createDeck(db, owner, { name: "Other" });
    const note = await addNote(db, owner, deck, basic("Q", "A"));
    const sent = await watch([`deck:${deck}`, `deck:${other}`]);

    await actAs(db, owner, (tx) => tx.query("select move_notes(array[$1]::uuid[], $2)", [note.noteId, other]));

    expect(sortByTopic((await sent()).map(change))).toEqual(
      sortByTopic([
        { topic: `deck:${deck}`, table: "notes", type: "update", ids: [note.noteId] },
        { topic: `deck:${other}`, table: "notes", type: "update", ids: [note.noteId] },
      ]),
    );
  });

  test("an answer is told to the user's own topic only: the schedule by card id, the answer by its id", async () => {
    const { owner, member, deck } = await deckWithMember();
    const note = await addNote(db, owner, deck, basic("Q", "A"));
    const card = note.cardIds[0] as string;
    const sent = await watch(topicsOf(deck, owner, member));

    const [log] = await actAs(db, member, async (tx) => {
      await recordReview(tx, { cardId: card, expectedVersion: 0 });
      return tx.query<{ id: string }>("select id from review_logs where card_id = $1", [card]);
    });

    const messages = (await sent()).map(change);
    expect(messages).toContainEqual({ topic: `user:${member.id}`, table: "card_states", type: "update", ids: [card] });
    expect(messages).toContainEqual({
      topic: `user:${member.id}`,
      table: "review_logs",
      type: "insert",
      ids: [log?.id],
    });
    expect(messages.filter((message) => message.topic !== `user:${member.id}`)).toEqual([]);
  });

  test("an undone answer is told to the user's own topic only: the answer deleted by its id, the schedule updated", async () => {
    const { owner, member, deck } = await deckWithMember();
    const note = await addNote(db, owner, deck, basic("Q", "A"));
    const card = note.cardIds[0] as string;
    const clientReviewId = randomUUID();
    const [log] = await actAs(db, member, async (tx) => {
      await recordReview(tx, { cardId: card, clientReviewId, expectedVersion: 0 });
      return tx.query<{ id: string }>("select id from review_logs where card_id = $1", [card]);
    });
    const sent = await watch(topicsOf(deck, owner, member));

    await actAs(db, member, (tx) => undoReview(tx, clientReviewId));

    expect(sortByTable((await sent()).map(change))).toEqual([
      { topic: `user:${member.id}`, table: "card_states", type: "update", ids: [card] },
      { topic: `user:${member.id}`, table: "review_logs", type: "delete", ids: [log?.id] },
    ]);
  });
});

describe("deletes reach only the topics they belong to", () => {
  test("a removed member is told on their own topic and the deck's, nobody else on theirs", async () => {
    const { owner, member, deck } = await deckWithMember();
    const bystander = await createUser(db);
    await addNote(db, owner, deck, basic("Q", "A"));
    const sent = await watch(topicsOf(deck, owner, member, bystander));

    // The owner may not send on the member's topic (realtime.messages' policies): the
    // triggers send as their owner, so the member is told all the same.
    await actAs(db, owner, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, member.id]),
    );

    expect(sortByTopic((await sent()).map(change))).toEqual(
      sortByTopic([
        { topic: `deck:${deck}`, table: "deck_members", type: "delete", ids: [member.id] },
        { topic: `user:${member.id}`, table: "deck_members", type: "delete", ids: [deck] },
      ]),
    );
  });

  test("a schedule deleted is told to its user's topic only", async () => {
    const { owner, member, deck } = await deckWithMember();
    const note = await addNote(db, owner, deck, basic("Q", "A"));
    const card = note.cardIds[0] as string;
    const sent = await watch(topicsOf(deck, owner, member));

    await actAs(db, service, (tx) =>
      tx.query("delete from card_states where user_id = $1 and card_id = $2", [member.id, card]),
    );

    expect((await sent()).map(change)).toEqual([
      { topic: `user:${member.id}`, table: "card_states", type: "delete", ids: [card] },
    ]);
  });

  test("a deleted note is one message on its deck's topic: its cards and schedules go with it unannounced", async () => {
    const { owner, member, deck } = await deckWithMember();
    const note = await addNote(db, owner, deck, basic("Q", "A"));
    const sent = await watch(topicsOf(deck, owner, member));

    await actAs(db, owner, (tx) => tx.query("delete from notes where id = $1", [note.noteId]));

    expect((await sent()).map(change)).toEqual([
      { topic: `deck:${deck}`, table: "notes", type: "delete", ids: [note.noteId] },
    ]);
  });

  test("a deleted deck is one message on its topic and one per member on theirs, however many notes it held", async () => {
    const { owner, member, deck } = await deckWithMember();
    await actAs(db, owner, (tx) =>
      tx.query(
        `insert into notes (deck_id, kind, fields)
         select $1, 'basic', jsonb_build_object('front', 'Q' || i, 'back', 'A') from generate_series(1, 300) i`,
        [deck],
      ),
    );
    const sent = await watch(topicsOf(deck, owner, member));

    await actAs(db, owner, (tx) => tx.query("delete from decks where id = $1", [deck]));

    expect(sortByTopic((await sent()).map(change))).toEqual(
      sortByTopic([
        { topic: `deck:${deck}`, table: "decks", type: "delete", ids: [deck] },
        { topic: `user:${owner.id}`, table: "deck_members", type: "delete", ids: [deck] },
        { topic: `user:${member.id}`, table: "deck_members", type: "delete", ids: [deck] },
      ]),
    );
  });
});

function sortByTopic<T extends { topic: string }>(messages: T[]): T[] {
  return [...messages].sort((a, b) => a.topic.localeCompare(b.topic));
}

function sortByTable<T extends { [key: string]: unknown }>(messages: T[]): T[] {
  return [...messages].sort((a, b) => String(a.table).localeCompare(String(b.table)));
}
