import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  createDeck,
  failure,
  only,
  stagedPreset,
  type User,
} from "./support/study-fixtures.js";

// Deck presets (docs/product.md, deck settings): a user's named set of study
// options that several of their decks share. The study queue reads the
// deck's own columns, which triggers keep equal to the preset's.

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

const NOW = "2026-01-15T15:00:00Z";

interface Options {
  new_per_day: number | null;
  reviews_per_day: number | null;
  leech_threshold: number;
  leech_action: "suspend" | "tag_only";
  bury_new: boolean;
  bury_reviews: boolean;
  bury_interday_learning: boolean;
}

const exam: Options = {
  new_per_day: 7,
  reviews_per_day: 70,
  leech_threshold: 5,
  leech_action: "tag_only",
  bury_new: false,
  bury_reviews: false,
  bury_interday_learning: true,
};

async function createPreset(user: User, name: string, options: Partial<Options> = {}): Promise<string> {
  const values = { ...exam, ...options };
  const rows = await actAs(db, user, (tx) =>
    tx.query<{ id: string }>(
      `insert into deck_presets (name, new_per_day, reviews_per_day, leech_threshold, leech_action, bury_new,
         bury_reviews, bury_interday_learning)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        name,
        values.new_per_day,
        values.reviews_per_day,
        values.leech_threshold,
        values.leech_action,
        values.bury_new,
        values.bury_reviews,
        values.bury_interday_learning,
      ],
    ),
  );
  return only(rows, "preset").id;
}

const setPreset = (user: User, deckId: string, presetId: string | null) =>
  actAs(db, user, (tx) => tx.query("select set_deck_preset($1, $2)", [deckId, presetId]));

/** The deck's preset and options, as stored. */
async function deckOptions(deckId: string): Promise<Options & { preset_id: string | null }> {
  return only(
    await db.query<Options & { preset_id: string | null }>(
      `select preset_id, new_per_day, reviews_per_day, leech_threshold, leech_action, bury_new, bury_reviews,
         bury_interday_learning
       from decks where id = $1`,
      [deckId],
    ),
  );
}

const newCardsInQueue = async (user: User, deckId: string) =>
  (
    await actAs(db, user, (tx: Queryable) =>
      tx.query<{ queue: string }>("select queue from study_queue(p_deck_id => $1, p_now => $2)", [deckId, NOW]),
    )
  ).filter((row) => row.queue === "new").length;

describe("choosing a preset", () => {
  test("copies the preset's options into the deck, and the study queue follows them", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana, { name: "Anatomy", newPerDay: 20 });
    await addBasicCards(db, ana, deck, 12);
    const preset = await createPreset(ana, "Exam");

    await setPreset(ana, deck, preset);

    expect(await deckOptions(deck)).toEqual({ preset_id: preset, ...exam });
    expect(await newCardsInQueue(ana, deck)).toBe(7);
  });

  test("a change to a preset reaches every deck using it in one statement, and no other deck", async () => {
    const ana = await createUser(db);
    const [first, second, other] = [
      await createDeck(db, ana, { name: "First" }),
      await createDeck(db, ana, { name: "Second" }),
      await createDeck(db, ana, { name: "Other", newPerDay: 3 }),
    ];
    await addBasicCards(db, ana, second, 12);
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, first, preset);
    await setPreset(ana, second, preset);

    await actAs(db, ana, (tx) =>
      tx.query("update deck_presets set new_per_day = 9, leech_action = 'suspend' where id = $1", [preset]),
    );

    const changed = { ...exam, new_per_day: 9, leech_action: "suspend" };
    expect(await deckOptions(first)).toEqual({ preset_id: preset, ...changed });
    expect(await deckOptions(second)).toEqual({ preset_id: preset, ...changed });
    expect(await deckOptions(other)).toMatchObject({ preset_id: null, new_per_day: 3, leech_action: "suspend" });
    expect(await newCardsInQueue(ana, second)).toBe(9);
  });

  test("a null daily limit in a preset is each member's own profile limit, as on a deck", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana, { newPerDay: 2 });
    await addBasicCards(db, ana, deck, 25);
    const preset = await createPreset(ana, "Profile limits", { new_per_day: null });
    await setPreset(ana, deck, preset);
    expect((await deckOptions(deck)).new_per_day).toBeNull();
    // The profile's default is 20 new cards a day.
    expect(await newCardsInQueue(ana, deck)).toBe(20);
  });

  test("the preset's update is announced to the members of each deck using it, as a deck update", async () => {
    const ana = await createUser(db);
    const member = await createUser(db);
    const deck = await createDeck(db, ana);
    await addMember(db, ana, deck, member, "viewer");
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);
    const before = await db.query<{ id: string }>("select id::text from realtime.messages where topic = $1", [
      `deck:${deck}`,
    ]);

    await actAs(db, ana, (tx) => tx.query("update deck_presets set reviews_per_day = 12 where id = $1", [preset]));

    const sent = await db.query<{ payload: { table: string; type: string; ids: string[] } }>(
      "select payload from realtime.messages where topic = $1 and not (id::text = any($2))",
      [`deck:${deck}`, before.map((row) => row.id)],
    );
    expect(sent.map(({ payload }) => ({ table: payload.table, type: payload.type, ids: payload.ids }))).toEqual([
      { table: "decks", type: "update", ids: [deck] },
    ]);
  });
});

describe("who may choose which preset", () => {
  test("only the deck's owner chooses its preset: an editor is refused with 42501 and nothing changes", async () => {
    const ana = await createUser(db);
    const eddie = await createUser(db);
    const deck = await createDeck(db, ana, { newPerDay: 4 });
    await addMember(db, ana, deck, eddie, "editor");
    const preset = await createPreset(ana, "Exam");

    const error = await failure(setPreset(eddie, deck, preset));

    expect(error.code).toBe("42501");
    expect(await deckOptions(deck)).toMatchObject({ preset_id: null, new_per_day: 4 });
  });

  test("another user's preset, or one that does not exist, is refused alike with 22023 and nothing changes", async () => {
    const ana = await createUser(db);
    const ben = await createUser(db);
    const bensPreset = await createPreset(ben, "Ben's");
    const deck = await createDeck(db, ana, { newPerDay: 4 });

    for (const preset of [bensPreset, "00000000-0000-4000-8000-000000000000"]) {
      const error = await failure(setPreset(ana, deck, preset));
      expect(error.code).toBe("22023");
      expect(error.detail).toBe("preset_id");
    }
    // Nor by a plain update of the deck, which the API roles may not write.
    const direct = await failure(
      actAs(db, ana, (tx) => tx.query("update decks set preset_id = $1 where id = $2", [bensPreset, deck])),
    );
    expect(direct.code).toBe("42501");
    expect(await deckOptions(deck)).toMatchObject({ preset_id: null, new_per_day: 4 });
  });

  test("presets are their owner's alone: others neither read, change nor delete them", async () => {
    const ana = await createUser(db);
    const ben = await createUser(db);
    const preset = await createPreset(ana, "Exam");
    const asBen = (sql: string) => actAs(db, ben, (tx) => tx.query(sql, [preset]));

    expect(await asBen("select id from deck_presets where id = $1")).toEqual([]);
    expect(await asBen("update deck_presets set new_per_day = 1 where id = $1 returning id")).toEqual([]);
    expect(await asBen("delete from deck_presets where id = $1 returning id")).toEqual([]);
    expect(await db.query("select new_per_day from deck_presets where id = $1", [preset])).toEqual([
      { new_per_day: 7 },
    ]);
  });

  test("a name is trimmed text of 1 to 120 characters, once per owner; another owner may use it too", async () => {
    const ana = await createUser(db);
    const ben = await createUser(db);
    await createPreset(ana, "Exam");
    expect((await failure(createPreset(ana, "Exam"))).code).toBe("23505");
    expect((await failure(createPreset(ana, " Exam"))).constraint).toBe("deck_presets_name_length");
    expect((await failure(createPreset(ana, ""))).constraint).toBe("deck_presets_name_length");
    expect((await failure(createPreset(ana, "x".repeat(121)))).constraint).toBe("deck_presets_name_length");
    expect((await failure(createPreset(ana, "Bad", { new_per_day: 10_000 }))).constraint).toBe(
      "deck_presets_new_per_day_range",
    );
    await createPreset(ben, "Exam");
  });
});

describe("leaving a preset", () => {
  test("writing an option on the deck itself takes it off its preset and keeps the value written", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana);
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);

    await actAs(db, ana, (tx) => tx.query("update decks set new_per_day = 30 where id = $1", [deck]));

    expect(await deckOptions(deck)).toEqual({ ...exam, preset_id: null, new_per_day: 30 });
    // The preset and its other decks are as they were.
    expect(await db.query("select new_per_day from deck_presets where id = $1", [preset])).toEqual([
      { new_per_day: 7 },
    ]);
  });

  test("saving the deck with its preset's own values (a rename, say) keeps the preset", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana);
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);

    await actAs(db, ana, (tx) =>
      tx.query("update decks set name = 'Renamed', new_per_day = 7, leech_action = 'tag_only' where id = $1", [deck]),
    );

    expect(await deckOptions(deck)).toEqual({ preset_id: preset, ...exam });
  });

  test("choosing no preset keeps the deck's options as its own", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana);
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);

    await setPreset(ana, deck, null);

    expect(await deckOptions(deck)).toEqual({ preset_id: null, ...exam });
  });

  test("deleting a preset leaves its decks with the options they had", async () => {
    const ana = await createUser(db);
    const decks = [await createDeck(db, ana), await createDeck(db, ana)];
    const preset = await createPreset(ana, "Exam");
    for (const deck of decks) await setPreset(ana, deck, preset);

    await actAs(db, ana, (tx) => tx.query("delete from deck_presets where id = $1", [preset]));

    for (const deck of decks) expect(await deckOptions(deck)).toEqual({ preset_id: null, ...exam });
  });

  test("a deck handed to another owner leaves its preset, which stays with the previous owner", async () => {
    const ana = await createUser(db);
    const ben = await createUser(db);
    const deck = await createDeck(db, ana);
    await addMember(db, ana, deck, ben, "editor");
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);

    await actAs(db, ana, (tx) => tx.query("select transfer_deck_ownership($1, $2)", [deck, ben.id]));

    expect(await deckOptions(deck)).toEqual({ preset_id: null, ...exam });
    expect(await db.query("select owner_id from deck_presets where id = $1", [preset])).toEqual([{ owner_id: ana.id }]);
  });

  test("a copy of a deck has the deck's limits but no preset", async () => {
    const ana = await createUser(db);
    const deck = await createDeck(db, ana);
    const preset = await createPreset(ana, "Exam");
    await setPreset(ana, deck, preset);

    const copy = only(
      await actAs(db, ana, (tx) => tx.query<{ id: string }>("select clone_deck($1) as id", [deck])),
      "copy",
    ).id;

    expect(await deckOptions(copy)).toMatchObject({ preset_id: null, new_per_day: 7, reviews_per_day: 70 });
  });
});

describe("presets an import brings", () => {
  const examStaged = stagedPreset("Exam", 1736000000451);
  const note = (guid: string, deck: string[]) => ({
    guid,
    kind: "basic",
    fields: { front: guid, back: "back" },
    tags: [],
    cards: [{ ordinal: 1 }],
    deck,
  });

  /** Imports two notes into two subdecks of "Medicine" sharing `preset`, under a new deck; the finished job's deck. */
  async function importTree(user: User, preset: Record<string, unknown>) {
    return actAs(db, user, async (tx) => {
      const job = only(
        await tx.query<{ id: string; deck_id: string }>(
          `select id, deck_id from start_import(p_job_id => gen_random_uuid(), p_source => 'apkg', p_total => 2,
             p_deck_name => 'Imported', p_options => '{"deck_tree": true}')`,
        ),
      );
      const id = job.id;
      await tx.query("select stage_import($1, 0, $2, 2)", [
        id,
        JSON.stringify({
          notes: [note("heart", ["Medicine", "Heart"]), note("lungs", ["Medicine", "Lungs"])],
          presets: [preset],
          deck_presets: [
            { deck: ["Medicine", "Heart"], preset: preset.key },
            { deck: ["Medicine", "Lungs"], preset: preset.key },
          ],
        }),
      ]);
      await tx.query("select finish_import($1)", [id]);
      return job.deck_id;
    });
  }

  const presetsOf = (user: User) =>
    db.query<{ id: string; name: string; source_id: string }>(
      "select id, name, source_id::text from deck_presets where owner_id = $1 order by name",
      [user.id],
    );
  const decksUnder = (parentName: string, owner: User) =>
    db.query<Options & { name: string; preset_id: string | null }>(
      `select d.name, d.preset_id, d.new_per_day, d.leech_action from decks d join decks p on p.id = d.parent_id
       where p.name = $1 and d.owner_id = $2 order by d.name`,
      [parentName, owner.id],
    );

  test("decks the import makes take the preset their staged entry names, found again by Anki's id", async () => {
    const ana = await createUser(db);
    await importTree(ana, examStaged);
    await importTree(ana, examStaged);

    const presets = await presetsOf(ana);
    expect(presets).toEqual([{ id: expect.any(String), name: "Exam", source_id: "1736000000451" }]);
    const decks = await decksUnder("Medicine", ana);
    expect(decks).toHaveLength(4);
    for (const deck of decks) {
      expect(deck).toMatchObject({ preset_id: presets[0]?.id, new_per_day: 7, leech_action: "tag_only" });
    }
  });

  test("a preset of the same name with other options is kept, and the import's gets the next free name", async () => {
    const ana = await createUser(db);
    await createPreset(ana, "Exam", { new_per_day: 40 });
    await importTree(ana, examStaged);
    expect((await presetsOf(ana)).map((preset) => preset.name)).toEqual(["Exam", "Exam (2)"]);
    expect((await decksUnder("Medicine", ana)).map((deck) => deck.new_per_day)).toEqual([7, 7]);
  });

  test("a malformed staged preset fails the import with 22023 naming it, and makes no preset", async () => {
    const ana = await createUser(db);
    const error = await failure(importTree(ana, { ...examStaged, leech_threshold: 0 }));
    expect(error.code).toBe("22023");
    expect(error.detail).toBe("presets");
    expect(error.message).toBe("preset Exam: the leech threshold is a whole number from 1 to 99");
    expect(await presetsOf(ana)).toEqual([]);
  });
});
