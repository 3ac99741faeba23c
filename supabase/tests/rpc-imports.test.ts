import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs, service } from "./support/database.js";
import { addMember, createDeck, failure, logsOf, only, stateOf, type User } from "./support/study-fixtures.js";

// Imports (docs/product.md §4 import job, §5, §7): notes staged in batches under an
// import_jobs row land all or nothing in finish_import; abandon_import gives up.

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

interface Job {
  id: string;
  user_id: string;
  deck_id: string | null;
  status: "queued" | "running" | "done" | "failed";
  processed: number;
  total: number;
  error: string | null;
  summary: Record<string, unknown> | null;
  options: Record<string, unknown>;
  created_deck: boolean;
}

interface StartInput {
  jobId?: string;
  total?: number;
  deckId?: string;
  deckName?: string;
  options?: Record<string, unknown>;
}

const start = (tx: Queryable, input: StartInput) =>
  tx
    .query<Job>(
      `select * from start_import(p_job_id => $1, p_source => 'apkg', p_total => $2, p_deck_id => $3,
         p_deck_name => $4, p_options => $5)`,
      [
        input.jobId ?? randomUUID(),
        input.total ?? 0,
        input.deckId ?? null,
        input.deckId ? null : (input.deckName ?? "Imported"),
        input.options ?? {},
      ],
    )
    .then((rows) => only(rows, "job"));
const stage = (tx: Queryable, jobId: string, batch: number, payload: unknown, processed = 0) =>
  tx
    .query<Job>("select * from stage_import(p_job_id => $1, p_batch => $2, p_payload => $3, p_processed => $4)", [
      jobId,
      batch,
      JSON.stringify(payload),
      processed,
    ])
    .then((rows) => only(rows, "job"));
const finish = (tx: Queryable, jobId: string, summary: Record<string, unknown> = {}) =>
  tx
    .query<Job>("select * from finish_import(p_job_id => $1, p_summary => $2)", [jobId, summary])
    .then((rows) => only(rows, "job"));
const abandon = (tx: Queryable, jobId: string, error = "cancelled") =>
  tx
    .query<Job>("select * from abandon_import(p_job_id => $1, p_error => $2)", [jobId, error])
    .then((rows) => only(rows, "job"));

/** Starts, stages each batch and finishes an import as `user`, returning the finished job. */
async function importNotes(
  user: User,
  target: StartInput,
  batches: StagedNote[][],
  summary: Record<string, unknown> = {},
): Promise<Job> {
  const total = batches.flat().length;
  const job = await actAs(db, user, (tx) => start(tx, { ...target, total }));
  let processed = 0;
  for (const [i, notes] of batches.entries()) {
    processed += notes.length;
    await actAs(db, user, (tx) => stage(tx, job.id, i, { notes }, processed));
  }
  return actAs(db, user, (tx) => finish(tx, job.id, summary));
}

interface StagedCard {
  ordinal: number;
  suspended?: boolean;
  buried_until?: string | null;
  schedule?: Record<string, unknown> | null;
  reviews?: Record<string, unknown>[];
}
interface StagedNote {
  guid: string | null;
  kind: string;
  fields: Record<string, unknown>;
  tags?: string[];
  cards?: StagedCard[];
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const basicNote = (guid: string | null, front: string, back: string, extra: Partial<StagedNote> = {}): StagedNote => ({
  guid,
  kind: "basic",
  fields: { front, back },
  tags: [],
  ...extra,
});
const review = (id: string, rating: number, state: string, reviewedDaysAgo: number, scheduledDays: number) => ({
  client_review_id: id,
  rating,
  state,
  due: daysAgo(reviewedDaysAgo),
  stability: scheduledDays + 0.5,
  difficulty: 5,
  elapsed_days: 1,
  last_elapsed_days: 1,
  scheduled_days: scheduledDays,
  learning_steps: 0,
  reviewed_at: daysAgo(reviewedDaysAgo),
  duration_ms: 3000,
});
const historyIds = [randomUUID(), randomUUID(), randomUUID()];
const studiedCard: StagedCard = {
  ordinal: 1,
  schedule: {
    state: "review",
    due: daysAgo(-7),
    stability: 12,
    difficulty: 4.5,
    elapsed_days: 3,
    scheduled_days: 10,
    learning_steps: 0,
    reps: 3,
    lapses: 0,
    last_review: daysAgo(3),
  },
  reviews: [
    review(historyIds[0] as string, 3, "new", 10, 1),
    review(historyIds[1] as string, 3, "learning", 9, 3),
    review(historyIds[2] as string, 4, "review", 3, 10),
  ],
};
/** A file of four notes in two batches: six cards, one studied three times, one suspended. */
const anki: StagedNote[][] = [
  [
    basicNote("guid-france", "France", "Paris", { tags: ["geo", "europe"], cards: [studiedCard] }),
    {
      guid: "guid-japan",
      kind: "basic_reversed",
      fields: { front: "Japan", back: "Tokyo" },
      cards: [{ ordinal: 2, suspended: true }],
    },
  ],
  [
    { guid: "guid-canberra", kind: "cloze", fields: { text: "{{c1::Canberra}} is in {{c2::Australia}}", extra: "" } },
    basicNote(null, "Peru", "Lima", {
      cards: [{ ordinal: 1, suspended: false, buried_until: null, schedule: null, reviews: [] }],
    }),
  ],
];

const notesOf = (deckId: string) =>
  db.query<{ id: string; kind: string; fields: Record<string, string>; source_guid: string | null }>(
    "select id, kind, fields, source_guid from notes where deck_id = $1 order by created_at, id",
    [deckId],
  );
const cardOf = (deckId: string, guid: string, ordinal: number) =>
  db
    .query<{ id: string }>(
      "select c.id from cards c join notes n on n.id = c.note_id where n.deck_id = $1 and n.source_guid = $2 and c.ordinal = $3",
      [deckId, guid, ordinal],
    )
    .then((rows) => only(rows, "card").id);
const stagedBatches = (jobId: string) =>
  db.query("select batch from private.import_batches where job_id = $1", [jobId]).then((rows) => rows.length);

describe("an import into a new deck", () => {
  let job: Job;
  beforeAll(async () => {
    // The client's summary is kept, except for the counts, which the database makes.
    job = await importNotes(alice, { deckName: "  Capitals  " }, anki, { file: "capitals.apkg", notes_added: 99 });
  });

  test("creates the deck, owned by the caller, and marks the job done with the database's counts", async () => {
    expect(job).toMatchObject({ status: "done", processed: 4, total: 4, created_deck: true, error: null });
    expect(job.options).toEqual({ existing: "skip" });
    expect(job.summary).toEqual({
      file: "capitals.apkg",
      notes_added: 4,
      notes_updated: 0,
      notes_skipped: 0,
      cards: 6,
      reviews_added: 3,
      note_types: [],
    });
    const deckId = job.deck_id as string;
    expect(await db.query("select name, owner_id from decks where id = $1", [deckId])).toEqual([
      { name: "Capitals", owner_id: alice.id },
    ]);
    expect(await db.query("select user_id, role from deck_members where deck_id = $1", [deckId])).toEqual([
      { user_id: alice.id, role: "owner" },
    ]);
    expect(await stagedBatches(job.id)).toBe(0);
  });

  test("adds the notes in file order with their origin, tags and cards", async () => {
    const notes = await notesOf(job.deck_id as string);
    expect(notes.map((n) => [n.kind, n.source_guid])).toEqual([
      ["basic", "guid-france"],
      ["basic_reversed", "guid-japan"],
      ["cloze", "guid-canberra"],
      ["basic", null],
    ]);
    expect(await db.query("select tags, created_by from notes where source_guid = 'guid-france'")).toEqual([
      { tags: ["geo", "europe"], created_by: alice.id },
    ]);
  });

  test("takes a type_in note, as Anki's Basic (type in the answer), with one card and its schedule", async () => {
    const typed = basicNote("guid-type", "Capital of Chile?", "Santiago", {
      kind: "type_in",
      cards: [{ ordinal: 1, suspended: true }],
    });
    const done = await importNotes(alice, { deckName: "Typed" }, [[typed]]);
    expect(done).toMatchObject({ status: "done", summary: { notes_added: 1, cards: 1 } });
    const deckId = done.deck_id as string;
    expect((await notesOf(deckId)).map((n) => [n.kind, n.fields])).toEqual([
      ["type_in", { front: "Capital of Chile?", back: "Santiago" }],
    ]);
    const card = await cardOf(deckId, "guid-type", 1);
    expect(await stateOf(db, alice.id, card)).toMatchObject({ suspended: true });
  });

  test("applies the file's schedule, suspension and review history to the caller's cards", async () => {
    const deckId = job.deck_id as string;
    const france = await cardOf(deckId, "guid-france", 1);
    expect(await stateOf(db, alice.id, france)).toMatchObject({ state: "review", reps: 3, stability: 12, version: 1 });
    const logs = await logsOf(db, alice.id, france);
    // The deck they count for is in the log itself, as an answer's own is: no row per log in review_log_decks.
    expect(logs.map((log) => [log.client_review_id, log.rating, log.previous])).toEqual(
      historyIds.map((id, i) => [id, i === 2 ? 4 : 3, { imported: true, deck_id: deckId }]),
    );
    expect(
      await db.query(
        "select 1 from private.review_log_decks n join review_logs l on l.id = n.log_id where l.card_id = $1",
        [france],
      ),
    ).toEqual([]);
    const japanBack = await cardOf(deckId, "guid-japan", 2);
    expect(await stateOf(db, alice.id, japanBack)).toMatchObject({ state: "new", suspended: true, version: 1 });
    expect(await stateOf(db, alice.id, await cardOf(deckId, "guid-japan", 1))).toMatchObject({
      suspended: false,
      version: 0,
    });
    // A card the file stages as new and unsuspended is left as it was.
    const peru = await db.query<{ version: number; state: string }>(
      `select s.version, s.state from card_states s join cards c on c.id = s.card_id join notes n on n.id = c.note_id
       where s.user_id = $1 and n.deck_id = $2 and n.source_guid is null`,
      [alice.id, deckId],
    );
    expect(peru).toEqual([{ version: 0, state: "new" }]);
  });

  test("finishing again returns the finished job and adds nothing", async () => {
    const again = await actAs(db, alice, (tx) => finish(tx, job.id, { retried: true }));
    expect(again).toEqual(job);
    expect(await notesOf(job.deck_id as string)).toHaveLength(4);
  });

  test("starting again with the same id returns the job unchanged", async () => {
    expect(await actAs(db, alice, (tx) => start(tx, { jobId: job.id, deckName: "Other", total: 9 }))).toEqual(job);
  });

  test("undo_review refuses an imported answer, changing nothing", async () => {
    const france = await cardOf(job.deck_id as string, "guid-france", 1);
    const before = await stateOf(db, alice.id, france);
    const error = await failure(actAs(db, alice, (tx) => tx.query("select undo_review($1)", [historyIds[2]])));
    expect(error).toMatchObject({ code: "22023", detail: "client_review_id" });
    expect(await stateOf(db, alice.id, france)).toEqual(before);
    expect(await logsOf(db, alice.id, france)).toHaveLength(3);
  });
});

describe("importing the same file again", () => {
  // Bob's own copy of the file, so its history is new to him the first time.
  let deckId: string;
  const withGuids = anki.map((batch) => batch.filter((note) => note.guid !== null));
  beforeAll(async () => {
    const first = await importNotes(bob, { deckName: "Again" }, anki);
    expect(first.summary).toMatchObject({ notes_added: 4, reviews_added: 3 });
    deckId = first.deck_id as string;
  });

  test("skips the notes it already has by default, adding none and no history", async () => {
    const job = await importNotes(bob, { deckId }, withGuids);
    expect(job.summary).toEqual({
      notes_added: 0,
      notes_updated: 0,
      notes_skipped: 3,
      cards: 0,
      reviews_added: 0,
      note_types: [],
    });
    expect(await notesOf(deckId)).toHaveLength(4);
  });

  test("with existing: update, changes their fields and keeps the schedules of cards that survive", async () => {
    const france = await cardOf(deckId, "guid-france", 1);
    const schedule = await stateOf(db, bob.id, france);
    const changed = structuredClone(withGuids);
    changed[0] = [
      basicNote("guid-france", "France", "Paris (capital)", { cards: [studiedCard] }),
      basicNote("guid-japan", "Japan", "Tokyo"),
    ];
    const job = await importNotes(bob, { deckId, options: { existing: "update" } }, changed);
    expect(job.summary).toEqual({
      notes_added: 0,
      notes_updated: 3,
      notes_skipped: 0,
      cards: 4,
      reviews_added: 0,
      note_types: [],
    });
    const notes = await notesOf(deckId);
    expect(notes.find((n) => n.source_guid === "guid-france")?.fields).toEqual({
      front: "France",
      back: "Paris (capital)",
    });
    expect(notes.find((n) => n.source_guid === "guid-japan")?.kind).toBe("basic");
    expect(await cardOf(deckId, "guid-france", 1)).toBe(france);
    expect(await stateOf(db, bob.id, france)).toMatchObject({ state: schedule?.state, due: schedule?.due });
    expect(await logsOf(db, bob.id, france)).toHaveLength(3);
  });

  test("a schedule studied since the file's last review is kept", async () => {
    const france = await cardOf(deckId, "guid-france", 1);
    const studied = { state: "review", due: daysAgo(-30), stability: 40, reps: 9, last_review: daysAgo(0) };
    await db.query(
      "update card_states set state = $3, due = $4, stability = $5, reps = $6, last_review = $7 where user_id = $1 and card_id = $2",
      [bob.id, france, studied.state, studied.due, studied.stability, studied.reps, studied.last_review],
    );
    await importNotes(bob, { deckId, options: { existing: "update" } }, withGuids);
    expect(await stateOf(db, bob.id, france)).toMatchObject({ stability: 40, reps: 9 });
  });

  test("a guid twice in one file: the first wins", async () => {
    const job = await importNotes(alice, { deckName: "Twice" }, [
      [basicNote("same", "First", "1")],
      [basicNote("same", "Second", "2")],
    ]);
    expect(job.summary).toMatchObject({ notes_added: 1, notes_skipped: 1 });
    expect((await notesOf(job.deck_id as string)).map((n) => n.fields.front)).toEqual(["First"]);
  });

  test("an answer staged as a tuple, as the SDK sends it, is stored as the same answer staged as an object", async () => {
    const asObject = review(randomUUID(), 2, "review", 4, 6);
    const asTuple = {
      ...review(randomUUID(), 2, "review", 4, 6),
      reviewed_at: asObject.reviewed_at,
      due: asObject.due,
    };
    const tuple = [
      asTuple.client_review_id,
      asTuple.rating,
      asTuple.state,
      asTuple.due,
      asTuple.stability,
      asTuple.difficulty,
      asTuple.elapsed_days,
      asTuple.last_elapsed_days,
      asTuple.scheduled_days,
      asTuple.learning_steps,
      asTuple.reviewed_at,
      asTuple.duration_ms,
    ];
    const job = await importNotes(alice, { deckName: "Tuples" }, [
      [
        basicNote("object", "Q1", "A1", { cards: [{ ordinal: 1, reviews: [asObject] }] }),
        basicNote("tuple", "Q2", "A2", {
          cards: [{ ordinal: 1, reviews: [tuple as unknown as Record<string, unknown>] }],
        }),
      ],
    ]);
    expect(job.summary).toMatchObject({ notes_added: 2, reviews_added: 2 });
    const stored = async (guid: string) => {
      const [log] = await logsOf(db, alice.id, await cardOf(job.deck_id as string, guid, 1));
      const { id: _id, card_id: _card, client_review_id: _client, created_at: _created, ...rest } = log ?? {};
      return rest;
    };
    expect(await stored("tuple")).toEqual(await stored("object"));
    expect(await stored("tuple")).toMatchObject({ rating: 2, state: "review", scheduled_days: 6, duration_ms: 3000 });
  });

  test("a review id twice in one file is stored once", async () => {
    const id = randomUUID();
    const card: StagedCard = { ordinal: 1, reviews: [review(id, 3, "new", 2, 1), review(id, 4, "learning", 1, 2)] };
    const job = await importNotes(alice, { deckName: "Twice reviewed" }, [
      [basicNote("r", "Q", "A", { cards: [card] })],
    ]);
    expect(job.summary).toMatchObject({ notes_added: 1, reviews_added: 1 });
    expect(
      await db.query("select rating from review_logs where user_id = $1 and client_review_id = $2", [alice.id, id]),
    ).toHaveLength(1);
  });

  test("restaging a batch keeps the first copy and never lowers progress", async () => {
    const job = await actAs(db, alice, (tx) => start(tx, { deckName: "Restaged", total: 10 }));
    await actAs(db, alice, (tx) => stage(tx, job.id, 0, { notes: [basicNote("a", "A", "1")] }, 6));
    const again = await actAs(db, alice, (tx) => stage(tx, job.id, 0, { notes: [basicNote("b", "B", "2")] }, 3));
    expect(again.processed).toBe(6);
    expect(
      await db.query(
        "select payload -> 'notes' -> 0 ->> 'guid' as guid from private.import_batches where job_id = $1",
        [job.id],
      ),
    ).toEqual([{ guid: "a" }]);
    expect((await actAs(db, alice, (tx) => stage(tx, job.id, 1, { notes: [] }, 99))).processed).toBe(10);
    await actAs(db, alice, (tx) => abandon(tx, job.id));
  });
});

describe("all or nothing", () => {
  test("one invalid note fails the finish, adding nothing; abandoning deletes the deck it created", async () => {
    const job = await actAs(db, alice, (tx) => start(tx, { deckName: "Broken", total: 2 }));
    await actAs(db, alice, (tx) =>
      stage(tx, job.id, 0, { notes: [basicNote("ok", "Fine", "Yes"), basicNote("bad", "<p> </p>", "Empty front")] }, 2),
    );
    const error = await failure(actAs(db, alice, (tx) => finish(tx, job.id)));
    expect(error).toMatchObject({ code: "22023", detail: "notes", message: "note 2 (bad): the front is empty" });
    expect(await notesOf(job.deck_id as string)).toEqual([]);
    expect(await db.query("select status from import_jobs where id = $1", [job.id])).toEqual([{ status: "running" }]);

    const failed = await actAs(db, alice, (tx) => abandon(tx, job.id, "The file has an empty card"));
    expect(failed).toMatchObject({ status: "failed", error: "The file has an empty card", deck_id: null });
    expect(await db.query("select id from decks where id = $1", [job.deck_id])).toEqual([]);
    expect(await stagedBatches(job.id)).toBe(0);
    expect(await actAs(db, alice, (tx) => abandon(tx, job.id, "again"))).toEqual(failed);
    const late = await failure(actAs(db, alice, (tx) => finish(tx, job.id)));
    expect(late).toMatchObject({ code: "22023", detail: "job" });
  });

  const badNotes: [string, StagedNote, { code: string; detail?: string; message?: string; constraint?: string }][] = [
    [
      "an unknown kind",
      { guid: null, kind: "image", fields: {} },
      {
        code: "22023",
        detail: "notes",
        message: "note 2: kind must be basic, basic_reversed, cloze, type_in, image_occlusion or custom",
      },
    ],
    ["a tag with a space", basicNote(null, "Q", "A", { tags: ["two words"] }), { code: "22023", detail: "notes" }],
    [
      "a review with a date that is not one",
      basicNote(null, "Q", "A", {
        cards: [{ ordinal: 1, reviews: [{ ...review(randomUUID(), 3, "new", 1, 1), reviewed_at: "soon" }] }],
      }),
      { code: "22023", detail: "notes" },
    ],
    [
      "a rating of 5",
      basicNote(null, "Q", "A", { cards: [{ ordinal: 1, reviews: [review(randomUUID(), 5, "new", 1, 1)] }] }),
      { code: "23514", constraint: "review_logs_rating_range" },
    ],
    [
      "a schedule beyond FSRS's bounds",
      basicNote(null, "Q", "A", { cards: [{ ordinal: 1, schedule: { ...studiedCard.schedule, stability: 1e9 } }] }),
      { code: "23514", constraint: "card_states_stability_range" },
    ],
    [
      "a schedule due in year 294276",
      basicNote(null, "Q", "A", {
        cards: [
          { ordinal: 1, schedule: { ...studiedCard.schedule, due: "294276-12-31T23:59:59Z", last_review: null } },
        ],
      }),
      { code: "23514", constraint: "card_states_dates_range" },
    ],
    [
      "a review answered in 4713 BC",
      basicNote(null, "Q", "A", {
        cards: [
          {
            ordinal: 1,
            reviews: [{ ...review(randomUUID(), 3, "new", 1, 1), reviewed_at: "4713-01-01 00:00:00+00 BC" }],
          },
        ],
      }),
      { code: "23514", constraint: "review_logs_times_range" },
    ],
  ];
  test.each(badNotes)("%s fails the whole import", async (_, bad, expected) => {
    const deckId = await createDeck(db, alice, { name: "Target" });
    const job = await actAs(db, alice, (tx) => start(tx, { deckId, total: 2 }));
    await actAs(db, alice, (tx) => stage(tx, job.id, 0, { notes: [basicNote(null, "Good", "Note"), bad] }));
    expect(await failure(actAs(db, alice, (tx) => finish(tx, job.id)))).toMatchObject(expected);
    expect(await notesOf(deckId)).toEqual([]);
    await actAs(db, alice, (tx) => abandon(tx, job.id, "invalid file"));
  });
});

describe("who may import", () => {
  let shared: string;
  let running: Job;
  beforeAll(async () => {
    shared = await createDeck(db, alice, { name: "Shared" });
    await addMember(db, alice, shared, bob, "editor");
    await addMember(db, alice, shared, carol, "viewer");
    running = await actAs(db, alice, (tx) => start(tx, { deckId: shared, total: 1 }));
    await actAs(db, alice, (tx) => stage(tx, running.id, 0, { notes: [basicNote("x", "Q", "A")] }));
  });

  test("nobody else can see, restart, stage, finish or abandon a job (PT404 job_id)", async () => {
    expect(await actAs(db, bob, (tx) => tx.query("select id from import_jobs where id = $1", [running.id]))).toEqual(
      [],
    );
    for (const call of [
      (tx: Queryable) => start(tx, { jobId: running.id, deckId: shared }),
      (tx: Queryable) => stage(tx, running.id, 1, { notes: [] }),
      (tx: Queryable) => finish(tx, running.id),
      (tx: Queryable) => abandon(tx, running.id),
    ]) {
      expect(await probeAs(db, bob, call)).toMatchObject({ ok: false, error: { code: "PT404", detail: "job_id" } });
    }
    expect(await stagedBatches(running.id)).toBe(1);
  });

  test("the staged batches are out of every API role's reach", async () => {
    const result = await probeAs(db, alice, (tx) => tx.query("select * from private.import_batches"));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });

  test("a viewer cannot import into the deck (42501), a stranger does not find it (PT404)", async () => {
    expect(await probeAs(db, carol, (tx) => start(tx, { deckId: shared }))).toMatchObject({
      ok: false,
      error: { code: "42501" },
    });
    const stranger = await createUser(db);
    expect(await probeAs(db, stranger, (tx) => start(tx, { deckId: shared }))).toMatchObject({
      ok: false,
      error: { code: "PT404", detail: "deck_id" },
    });
  });

  test("anonymous callers cannot call any import function", async () => {
    for (const call of [
      (tx: Queryable) => start(tx, { deckName: "Anon" }),
      (tx: Queryable) => stage(tx, running.id, 1, { notes: [] }),
      (tx: Queryable) => finish(tx, running.id),
      (tx: Queryable) => abandon(tx, running.id),
    ]) {
      expect(await probeAs(db, anon, call)).toMatchObject({ ok: false, error: { code: "42501" } });
    }
  });

  test("an editor demoted between start and finish is refused (42501) and can still abandon", async () => {
    const job = await actAs(db, bob, (tx) => start(tx, { deckId: shared, total: 1 }));
    await actAs(db, bob, (tx) => stage(tx, job.id, 0, { notes: [basicNote("bob", "Q", "A")] }, 1));
    await actAs(db, alice, (tx) =>
      tx.query("update deck_members set role = 'viewer' where deck_id = $1 and user_id = $2", [shared, bob.id]),
    );
    expect(await failure(actAs(db, bob, (tx) => finish(tx, job.id)))).toMatchObject({ code: "42501" });
    expect(await actAs(db, bob, (tx) => abandon(tx, job.id))).toMatchObject({ status: "failed", deck_id: shared });
    expect(await db.query("select id from decks where id = $1", [shared])).toEqual([{ id: shared }]);
  });

  test("a finished job takes no more batches (22023 job)", async () => {
    const done = await importNotes(alice, { deckName: "Done" }, [[basicNote(null, "Q", "A")]]);
    const error = await failure(actAs(db, alice, (tx) => stage(tx, done.id, 5, { notes: [] })));
    expect(error).toMatchObject({ code: "22023", detail: "job" });
    expect(await failure(actAs(db, alice, (tx) => abandon(tx, done.id)))).toMatchObject({
      code: "22023",
      detail: "job",
    });
  });

  test("at most 3 imports run at once per user (PT413 imports)", async () => {
    const dana = await createUser(db);
    for (let i = 0; i < 3; i++) await actAs(db, dana, (tx) => start(tx, { deckName: `Deck ${i}` }));
    expect(await failure(actAs(db, dana, (tx) => start(tx, { deckName: "Fourth" })))).toMatchObject({
      code: "PT413",
      detail: "imports",
    });
  });

  const badStarts: [string, StartInput, string][] = [
    ["a negative total", { total: -1 }, "total"],
    ["a deck and a name", { deckId: randomUUID(), deckName: "Both" }, "deck_id"],
    ["a blank name", { deckName: " \u00a0 " }, "deck_name"],
    ["an unknown option value", { options: { existing: "merge" } }, "existing"],
  ];
  test.each(badStarts)("start refuses %s (22023 %s), creating nothing", async (_, input, field) => {
    const result = await probeAs(db, alice, (tx) =>
      tx.query("select * from start_import($1, 'csv', $2, $3, $4, $5)", [
        randomUUID(),
        input.total ?? 0,
        input.deckId ?? null,
        input.deckName ?? (input.deckId ? null : "Fine"),
        input.options ?? {},
      ]),
    );
    expect(result).toMatchObject({ ok: false, error: { code: "22023", detail: field } });
  });

  test("stage refuses a payload that is not a list of notes or over 4 MiB (22023 payload)", async () => {
    const huge = { notes: [basicNote(null, "x".repeat(4 * 1024 * 1024), "A")] };
    for (const payload of [[], { cards: [] }, huge]) {
      expect(await probeAs(db, alice, (tx) => stage(tx, running.id, 2, payload))).toMatchObject({
        ok: false,
        error: { code: "22023", detail: "payload" },
      });
    }
  });
});

describe("an import into an existing deck", () => {
  test("applies the importer's schedule to their own rows only; other members start new", async () => {
    const deckId = await createDeck(db, alice, { name: "Members" });
    await addMember(db, alice, deckId, carol, "viewer");
    await importNotes(alice, { deckId }, [[basicNote("g", "France", "Paris", { cards: [studiedCard] })]]);
    const card = await cardOf(deckId, "g", 1);
    expect(await stateOf(db, alice.id, card)).toMatchObject({ state: "review", reps: 3 });
    expect(await stateOf(db, carol.id, card)).toMatchObject({ state: "new", reps: 0, version: 0 });
    expect(await logsOf(db, carol.id, card)).toEqual([]);
  });

  test("clone_deck copies the notes' origin; a note moved next to one of the same origin leaves its own", async () => {
    const deckId = await createDeck(db, alice, { name: "Origin" });
    await importNotes(alice, { deckId }, [[basicNote("moved", "Q", "A")]]);
    const clone = await actAs(db, alice, (tx) => tx.query<{ id: string }>("select clone_deck($1) as id", [deckId]));
    const cloneId = only(clone).id;
    expect((await notesOf(cloneId)).map((n) => n.source_guid)).toEqual(["moved"]);
    const [original] = await notesOf(deckId);
    await actAs(db, alice, (tx) => tx.query("select move_notes($1, $2)", [[original?.id], cloneId]));
    expect((await notesOf(cloneId)).map((n) => n.source_guid).sort()).toEqual(["moved", null]);
  });

  test("clients cannot set a note's origin themselves", async () => {
    const deckId = await createDeck(db, alice, { name: "Direct" });
    const result = await probeAs(db, alice, (tx) =>
      tx.query(
        `insert into notes (deck_id, kind, fields, source_guid) values ($1, 'basic', '{"front":"q","back":"a"}', 'x')`,
        [deckId],
      ),
    );
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("what an import may stage, and for how long", () => {
  const jobOf = (id: string) =>
    db
      .query<Job & { created_at: Date }>("select * from import_jobs where id = $1", [id])
      .then((rows) => only(rows, "job"));
  /** Makes a job look started `hours` ago, as a tab closed that long ago left it. */
  const age = (jobId: string, hours: number) =>
    db.query("update import_jobs set created_at = now() - make_interval(hours => $2) where id = $1", [jobId, hours]);
  const deckExists = (deckId: string) =>
    db.query("select id from decks where id = $1", [deckId]).then((rows) => rows.length === 1);

  test("a batch holds at most 4 MiB: 4 MiB of text passes, a byte more does not (22023 payload)", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Sized" }));
    // The payload's size as the database writes it, around a front of `length` characters.
    const payload = (length: number) => ({ notes: [basicNote(null, "x".repeat(length), "A")] });
    const [empty] = await db.query<{ bytes: number }>("select octet_length($1::jsonb::text) as bytes", [
      JSON.stringify(payload(0)),
    ]);
    const room = 4 * 1024 * 1024 - (empty?.bytes ?? 0);
    expect(await actAs(db, user, (tx) => stage(tx, job.id, 0, payload(room)))).toMatchObject({ status: "running" });
    expect(await probeAs(db, user, (tx) => stage(tx, job.id, 1, payload(room + 1)))).toMatchObject({
      ok: false,
      error: { code: "22023", detail: "payload" },
    });
    expect(await stagedBatches(job.id)).toBe(1);
  });

  test("a job takes batches 0 to 999 (22023 batch)", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Counted" }));
    await actAs(db, user, (tx) => stage(tx, job.id, 999, { notes: [] }));
    for (const batch of [1000, 99_999, -1]) {
      expect(await probeAs(db, user, (tx) => stage(tx, job.id, batch, { notes: [] }))).toMatchObject({
        ok: false,
        error: { code: "22023", detail: "batch" },
      });
    }
    expect(await stagedBatches(job.id)).toBe(1);
  });

  test("a job stages at most 512 MiB in all (PT413 import_size); a batch sent again is not counted twice", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Full" }));
    await actAs(db, user, (tx) => stage(tx, job.id, 0, { notes: [] }));
    // Batch 0 stands for 512 MiB less 10 bytes already staged.
    await db.query("update private.import_batches set bytes = 512 * 1024 * 1024 - 10 where job_id = $1", [job.id]);
    const small = { notes: [basicNote(null, "Q", "A")] };
    expect(await probeAs(db, user, (tx) => stage(tx, job.id, 1, small))).toMatchObject({
      ok: false,
      error: { code: "PT413", detail: "import_size" },
    });
    expect(await actAs(db, user, (tx) => stage(tx, job.id, 0, { notes: [] }))).toMatchObject({ status: "running" });
    expect(await stagedBatches(job.id)).toBe(1);
  });

  test("a batch holds at most 1,000 notes, a job 100,000 (22023 payload, PT413 import_size), however small each note", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Many small" }));
    // Empty objects: a million of them fit in 3 MB, and finishing is built for 100,000.
    const empties = (count: number) => ({ notes: Array.from({ length: count }, () => ({})) });
    expect(await probeAs(db, user, (tx) => stage(tx, job.id, 0, empties(1001)))).toMatchObject({
      ok: false,
      error: { code: "22023", detail: "payload", message: "a batch holds at most 1,000 notes" },
    });
    await actAs(db, user, (tx) => stage(tx, job.id, 0, empties(1000)));
    // Batch 0 stands for 100,000 notes less 10 already staged.
    await db.query("update private.import_batches set notes = 99990 where job_id = $1", [job.id]);
    expect(await probeAs(db, user, (tx) => stage(tx, job.id, 1, empties(11)))).toMatchObject({
      ok: false,
      error: { code: "PT413", detail: "import_size", message: "an import stages at most 100,000 notes" },
    });
    expect(await actAs(db, user, (tx) => stage(tx, job.id, 1, empties(10)))).toMatchObject({ status: "running" });
    // Sent again, a staged batch is not counted twice.
    expect(await actAs(db, user, (tx) => stage(tx, job.id, 0, empties(1000)))).toMatchObject({ status: "running" });
    expect(await stagedBatches(job.id)).toBe(2);
  });

  test("a job started more than a day ago has expired: no batch, no finish (PT410 expired), abandoning still works", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Late" }));
    await actAs(db, user, (tx) => stage(tx, job.id, 0, { notes: [basicNote("late", "Q", "A")] }, 1));
    await age(job.id, 25);
    for (const call of [
      (tx: Queryable) => stage(tx, job.id, 1, { notes: [] }),
      (tx: Queryable) => finish(tx, job.id),
    ]) {
      expect(await probeAs(db, user, call)).toMatchObject({ ok: false, error: { code: "PT410", detail: "expired" } });
    }
    expect(await actAs(db, user, (tx) => abandon(tx, job.id))).toMatchObject({ status: "failed" });
    expect(await stagedBatches(job.id)).toBe(0);
  });

  test("abandoned jobs are purged when anyone starts an import; finished ones and their notes are not touched", async () => {
    const erin = await createUser(db);
    const withNotes = await createDeck(db, erin, { name: "Has notes" });
    await importNotes(erin, { deckId: withNotes }, [[basicNote("kept", "Q", "A")]]);
    const finished = await importNotes(erin, { deckName: "Finished" }, [[basicNote("done", "Q", "A")]]);
    const abandoned = await actAs(db, erin, (tx) => start(tx, { deckName: "Abandoned" }));
    await actAs(db, erin, (tx) => stage(tx, abandoned.id, 0, { notes: [basicNote("a", "Q", "A")] }));
    const intoNotes = await actAs(db, erin, (tx) => start(tx, { deckId: withNotes }));
    await actAs(db, erin, (tx) => stage(tx, intoNotes.id, 0, { notes: [basicNote("b", "Q", "A")] }));
    const young = await actAs(db, erin, (tx) => start(tx, { deckName: "Young" }));
    await actAs(db, erin, (tx) => stage(tx, young.id, 0, { notes: [basicNote("c", "Q", "A")] }));
    for (const job of [finished, abandoned, intoNotes]) await age(job.id, 25);

    // Somebody else starts an import.
    await actAs(db, bob, (tx) => start(tx, { deckName: "Trigger" }));

    expect(await jobOf(abandoned.id)).toMatchObject({ status: "failed", error: "expired", deck_id: null });
    expect(await stagedBatches(abandoned.id)).toBe(0);
    expect(await deckExists(abandoned.deck_id as string)).toBe(false);
    // A deck that holds notes stays, with them.
    expect(await jobOf(intoNotes.id)).toMatchObject({ status: "failed", error: "expired", deck_id: withNotes });
    expect(await stagedBatches(intoNotes.id)).toBe(0);
    expect((await notesOf(withNotes)).map((n) => n.source_guid)).toEqual(["kept"]);
    // Finished and young imports are left as they were.
    expect(await jobOf(finished.id)).toMatchObject({ status: "done", deck_id: finished.deck_id });
    expect((await notesOf(finished.deck_id as string)).map((n) => n.source_guid)).toEqual(["done"]);
    expect(await jobOf(young.id)).toMatchObject({ status: "running" });
    expect(await stagedBatches(young.id)).toBe(1);
  });

  test("an expired job no longer counts against the 3 that may run at once", async () => {
    const fay = await createUser(db);
    const jobs: Job[] = [];
    for (let i = 0; i < 3; i++) jobs.push(await actAs(db, fay, (tx) => start(tx, { deckName: `Run ${i}` })));
    await age((jobs[0] as Job).id, 25);
    expect(await actAs(db, fay, (tx) => start(tx, { deckName: "Fourth" }))).toMatchObject({ status: "running" });
    expect(await failure(actAs(db, fay, (tx) => start(tx, { deckName: "Fifth" })))).toMatchObject({
      code: "PT413",
      detail: "imports",
    });
  });

  test("the service role may purge; signed-in and signed-out callers may not (42501)", async () => {
    const user = await createUser(db);
    const job = await actAs(db, user, (tx) => start(tx, { deckName: "Left behind" }));
    await age(job.id, 30);
    for (const actor of [user, anon]) {
      expect(await probeAs(db, actor, (tx) => tx.query("select purge_abandoned_imports()"))).toMatchObject({
        ok: false,
        error: { code: "42501" },
      });
    }
    const [purged] = await actAs(db, service, (tx) =>
      tx.query<{ purged: number }>("select purge_abandoned_imports() as purged"),
    );
    expect(purged?.purged).toBeGreaterThanOrEqual(1);
    expect(await jobOf(job.id)).toMatchObject({ status: "failed", error: "expired" });
    expect(await probeAs(db, service, (tx) => tx.query("select purge_abandoned_imports(0)"))).toMatchObject({
      ok: false,
      error: { code: "22023", detail: "limit" },
    });
  });
});
