import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase, service } from "./support/database.js";
import { createDeck, failure, only, stagedPreset, type User } from "./support/study-fixtures.js";

// An import into a new deck (with the subdecks of a package's deck tree) may
// be committed a batch a call, in order, while later batches are still being
// staged (finish_import's p_one_batch), so no call holds the database for the
// whole file. The deck has no member until
// the call without p_one_batch reveals it: nothing of it is listed or read
// before, and a failure in any step leaves nothing behind.

let db: Database;
let alice: User;

beforeAll(async () => {
  db = await openTestDatabase();
  alice = await createUser(db, { displayName: "Alice" });
});
afterAll(() => db.close());

interface Job {
  id: string;
  deck_id: string;
  status: "running" | "done" | "failed";
  summary: Record<string, unknown> | null;
  finishing: Record<string, unknown> | null;
}

const note = (guid: string | null, front: string, cards: unknown[] = []) => ({
  guid,
  kind: "basic",
  fields: { front, back: `${front} back` },
  tags: [],
  cards,
});
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const answer = (reviewedDaysAgo: number) => [
  randomUUID(),
  3,
  "review",
  daysAgo(reviewedDaysAgo - 3),
  4.5,
  5,
  1,
  1,
  3,
  0,
  daysAgo(reviewedDaysAgo),
  3000,
];
const studied = {
  ordinal: 1,
  schedule: { state: "review", due: daysAgo(-5), stability: 9, difficulty: 4, reps: 2, last_review: daysAgo(2) },
  reviews: [answer(9), answer(2)],
};

async function staged(
  user: User,
  batches: unknown[][],
  target: { deckId?: string; deckTree?: boolean; first?: Record<string, unknown> } = {},
): Promise<Job> {
  const total = batches.flat().length;
  const job = await actAs(db, user, async (tx) =>
    only(
      await tx.query<Job>(
        `select * from start_import(p_job_id => $1, p_source => 'apkg', p_total => $2, p_deck_id => $3,
           p_deck_name => $4, p_options => $5)`,
        [
          randomUUID(),
          total,
          target.deckId ?? null,
          target.deckId ? null : "Stepped",
          JSON.stringify(target.deckTree ? { deck_tree: true } : {}),
        ],
      ),
    ),
  );
  for (const [i, notes] of batches.entries()) {
    await actAs(db, user, (tx) => stageBatch(tx, job.id, i, notes, i === 0 ? target.first : undefined));
  }
  return job;
}
/** Stages a batch; `extra` goes with its notes (the first batch's note types and presets). */
const stageBatch = (tx: Queryable, jobId: string, batch: number, notes: unknown[], extra?: Record<string, unknown>) =>
  tx.query("select stage_import(p_job_id => $1, p_batch => $2, p_payload => $3, p_processed => 0)", [
    jobId,
    batch,
    JSON.stringify({ notes, ...extra }),
  ]);
const step = (user: User, jobId: string) =>
  actAs(db, user, async (tx) =>
    only(await tx.query<Job>("select * from finish_import(p_job_id => $1, p_one_batch => true)", [jobId])),
  );
const finish = (user: User, jobId: string) =>
  actAs(db, user, async (tx) => only(await tx.query<Job>("select * from finish_import(p_job_id => $1)", [jobId])));
/** What `user` sees of a deck through the API: listed among their decks, and its notes. */
const seenBy = (user: User, deckId: string) =>
  actAs(db, user, async (tx) => ({
    listed: (await tx.query("select 1 from deck_members where deck_id = $1", [deckId])).length > 0,
    notes: (await tx.query("select 1 from notes where deck_id = $1", [deckId])).length,
  }));

test("a new deck is committed a batch a call and seen only once the last call reveals it", async () => {
  const job = await staged(alice, [
    [note("a", "One"), note("b", "Two")],
    [note("a", "One again"), note("c", "Three", [studied])],
    [note(null, "Four")],
  ]);
  for (const batch of [0, 1, 2]) {
    const running = await step(alice, job.id);
    expect(running).toMatchObject({ status: "running", finishing: { batch } });
    expect(await seenBy(alice, job.deck_id)).toEqual({ listed: false, notes: 0 });
  }
  // With every batch in, a step has nothing to commit; the call without p_one_batch reveals the deck.
  expect(await step(alice, job.id)).toMatchObject({ status: "running", finishing: { batch: 2 } });
  const done = await finish(alice, job.id);
  expect(done.status).toBe("done");
  expect(done.summary).toMatchObject({ notes_added: 4, notes_skipped: 1, cards: 4, reviews_added: 2 });
  expect(await seenBy(alice, job.deck_id)).toEqual({ listed: true, notes: 4 });
  // The first note of a guid counts; the later one in another batch is skipped.
  const fronts = await db.query<{ front: string }>(
    "select fields ->> 'front' as front from notes where deck_id = $1 order by created_at",
    [job.deck_id],
  );
  expect(fronts.map((row) => row.front)).toEqual(["One", "Two", "Three", "Four"]);
  // The importer's schedule and history are there, written before the deck was revealed.
  const [state] = await db.query<{ state: string; reps: number; logs: number }>(
    `select s.state, s.reps, (select count(*)::int from review_logs l where l.card_id = s.card_id) as logs
     from card_states s join cards c on c.id = s.card_id join notes n on n.id = c.note_id
     where s.user_id = $1 and n.fields ->> 'front' = 'Three'`,
    [alice.id],
  );
  expect(state).toEqual({ state: "review", reps: 2, logs: 2 });
  expect(await db.query("select 1 from card_states where deck_id = $1", [job.deck_id])).toHaveLength(4);
  // Finishing again returns the finished job.
  expect(await finish(alice, job.id)).toMatchObject({ status: "done", summary: done.summary });
  expect(await step(alice, job.id)).toMatchObject({ status: "done", summary: done.summary });
});

test("steps commit the batches in their order, each once it is staged, while later ones arrive", async () => {
  const job = await staged(alice, [[note("s0", "S0")]]);
  expect(await step(alice, job.id)).toMatchObject({ finishing: { batch: 0 } });
  // Batch 2 lands before batch 1: nothing is committed until batch 1 is in.
  await actAs(db, alice, (tx) => stageBatch(tx, job.id, 2, [note("s2", "S2")]));
  expect(await step(alice, job.id)).toMatchObject({ finishing: { batch: 0 } });
  await actAs(db, alice, (tx) => stageBatch(tx, job.id, 1, [note("s1", "S1")]));
  expect(await step(alice, job.id)).toMatchObject({ finishing: { batch: 1 } });
  const done = await finish(alice, job.id);
  expect(done).toMatchObject({ status: "done", summary: { notes_added: 3 } });
  const fronts = await db.query<{ front: string }>(
    "select fields ->> 'front' as front from notes where deck_id = $1 order by created_at",
    [job.deck_id],
  );
  expect(fronts.map((row) => row.front)).toEqual(["S0", "S1", "S2"]);
});

test("a bad note is named by its place in the file; abandoning leaves nothing of the steps before", async () => {
  const job = await staged(alice, [[note("x", "Fine"), note("y", "Fine too")], [note("z", "   ")]]);
  await step(alice, job.id);
  const error = await failure(step(alice, job.id));
  expect(error).toMatchObject({ code: "22023" });
  expect(error.message).toMatch(/^note 3 \(z\)/);
  await actAs(db, alice, (tx) => tx.query("select abandon_import(p_job_id => $1)", [job.id]));
  expect(await db.query("select 1 from decks where id = $1", [job.deck_id])).toHaveLength(0);
  expect(await db.query("select 1 from notes where source_guid in ('x', 'y')")).toHaveLength(0);
});

test("a step aims at a second of work on a server, a quarter on the embedded database, which it holds", async () => {
  const { ms } = only(await db.query<{ ms: number }>("select private.import_step_ms() as ms"));
  expect(ms).toBe(process.env.DATABASE_URL ? 1000 : 250);
});

test("a slower server commits part of a batch a step, in the file's order", async () => {
  const many = Array.from({ length: 120 }, (_, i) => note(`m${i}`, `M${String(i).padStart(3, "0")}`));
  const job = await staged(alice, [[note("first", "First")], many]);
  await step(alice, job.id);
  // As if the first step had taken a fiftieth of a step's work a note: the next take 50 notes.
  const { ms } = only(await db.query<{ ms: number }>("select private.import_step_ms() as ms"));
  const slowPace = () =>
    db.query(
      "update import_jobs set finishing = jsonb_set(finishing, '{ms_per_note}', to_jsonb($2::float8)) where id = $1",
      [job.id, ms / 50],
    );
  await slowPace();
  const after = async () => {
    const stepped = await step(alice, job.id);
    await slowPace();
    return stepped.finishing;
  };
  expect(await after()).toMatchObject({ batch: 0, offset: 50, notes_read: 51 });
  expect(await after()).toMatchObject({ batch: 0, offset: 100, notes_read: 101 });
  expect(await after()).toMatchObject({ batch: 1, offset: 0, notes_read: 121 });
  expect(await db.query("select 1 from private.import_batches where job_id = $1", [job.id])).toHaveLength(0);
  expect(await finish(alice, job.id)).toMatchObject({ status: "done", summary: { notes_added: 121 } });
  const fronts = await db.query<{ front: string }>(
    "select fields ->> 'front' as front from notes where deck_id = $1 order by created_at",
    [job.deck_id],
  );
  expect(fronts.map((row) => row.front)).toEqual(["First", ...many.map((staged) => staged.fields.front)]);
});

test("the next batch is staged while a step works: the step writes the job's row only as it ends", async () => {
  const job = await staged(alice, [[note("w1", "W1")]]);
  const stageNext = () =>
    actAs(db, alice, async (tx) => {
      // A stage waiting on the step would fail here instead of waiting for it.
      await tx.query("select set_config('lock_timeout', '2s', true)");
      await stageBatch(tx, job.id, 1, [note("w2", "W2")]);
    });
  if (db.kind === "postgres") {
    // Another session holds the deck, so the step waits inside its turn.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await tx.query("select 1 from decks where id = $1 for update", [job.deck_id]);
      held();
      await released;
    });
    await holding;
    const stepping = step(alice, job.id);
    for (;;) {
      const [waiting] = await db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query like '%finish_import%'`,
      );
      if (waiting?.n) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stageNext();
    release();
    await holder;
    expect((await stepping).finishing).toMatchObject({ batch: 0 });
  } else {
    // The embedded database has one connection: calls run one after the other.
    expect((await step(alice, job.id)).finishing).toMatchObject({ batch: 0 });
    await stageNext();
  }
  expect((await step(alice, job.id)).finishing).toMatchObject({ batch: 1 });
  expect(await finish(alice, job.id)).toMatchObject({ status: "done", summary: { notes_added: 2 } });
});

test("a batch a step has committed, sent again, changes nothing", async () => {
  const job = await staged(alice, [[note("p", "P")], [note("q", "Q")]]);
  await step(alice, job.id);
  await actAs(db, alice, (tx) => stageBatch(tx, job.id, 0, [note("p", "P")]));
  await step(alice, job.id);
  await actAs(db, alice, (tx) => stageBatch(tx, job.id, 0, [note("p", "P")]));
  expect(await finish(alice, job.id)).toMatchObject({ status: "done", summary: { notes_added: 2, notes_skipped: 0 } });
});

test("its owner uploads the deck's media before it is revealed; no one else can", async () => {
  const job = await staged(alice, [[note("m", "M")]]);
  const bob = await createUser(db);
  const canEdit = (user: User) =>
    actAs(db, user, async (tx) =>
      only(await tx.query<{ ok: boolean }>("select private.can_edit_deck($1) as ok", [job.deck_id])),
    );
  expect(await canEdit(alice)).toEqual({ ok: true });
  expect(await canEdit(bob)).toEqual({ ok: false });
});

test("revealing the deck leaves the importer's schedules as the steps wrote them, and adds any missing", async () => {
  const job = await staged(alice, [[note("r1", "R1", [studied])]]);
  await step(alice, job.id);
  // Its owner may already write to it (as the import's media do): a card added so has no schedule yet.
  await actAs(db, alice, (tx) =>
    tx.query(
      `insert into notes (deck_id, kind, fields) values ($1, 'basic', '{"front": "Added meanwhile", "back": "b"}')`,
      [job.deck_id],
    ),
  );
  await finish(alice, job.id);
  const states = await db.query<{ front: string; state: string; reps: number }>(
    `select n.fields ->> 'front' as front, s.state, s.reps
     from card_states s join cards c on c.id = s.card_id join notes n on n.id = c.note_id
     where s.user_id = $1 and c.deck_id = $2 order by front`,
    [alice.id, job.deck_id],
  );
  expect(states).toEqual([
    { front: "Added meanwhile", state: "new", reps: 0 },
    { front: "R1", state: "review", reps: 2 },
  ]);
});

test("an import into an existing deck is committed in one call: a step commits nothing", async () => {
  const deckId = await createDeck(db, alice);
  const job = await staged(alice, [[note("e1", "E1")], [note("e2", "E2")]], { deckId });
  expect(await step(alice, job.id)).toMatchObject({ status: "running", finishing: null });
  expect(await db.query("select 1 from notes where deck_id = $1", [deckId])).toHaveLength(0);
  expect(await finish(alice, job.id)).toMatchObject({ status: "done", summary: { notes_added: 2 } });
});

test("an expired import left between steps is cleared with its unrevealed deck", async () => {
  const job = await staged(alice, [[note("o1", "O1")], [note("o2", "O2")]]);
  await step(alice, job.id);
  await db.query("update import_jobs set created_at = now() - interval '30 hours' where id = $1", [job.id]);
  await actAs(db, service, (tx) => tx.query("select purge_abandoned_imports()"));
  expect(await db.query("select 1 from decks where id = $1", [job.deck_id])).toHaveLength(0);
  expect(await db.query("select 1 from notes where source_guid = 'o1'")).toHaveLength(0);
});

test("a purge leaves an expired import while a step of it holds its turn, and clears it after", async () => {
  const job = await staged(alice, [[note("h1", "H1")]]);
  await db.query("update import_jobs set created_at = now() - interval '30 hours' where id = $1", [job.id]);
  const purge = () => actAs(db, service, (tx) => tx.query("select purge_abandoned_imports()"));
  const statusOf = async () =>
    only(await db.query<{ status: string }>("select status from import_jobs where id = $1", [job.id])).status;
  if (db.kind === "postgres") {
    // Another session holds the job's turn, as a step at work does.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await tx.query("select private.take_import_turn($1)", [job.id]);
      held();
      await released;
    });
    await holding;
    await purge();
    expect(await statusOf()).toBe("running");
    release();
    await holder;
  }
  // (The embedded database has one connection: no step can be at work meanwhile.)
  await purge();
  expect(await statusOf()).toBe("failed");
});

test("a package's deck tree under a new deck is made in steps, hidden and without members until revealed", async () => {
  const exam = stagedPreset("Stepped exam", 1736000000999);
  const inDeck = (deck: string[], guid: string, cards: unknown[] = []) => ({ ...note(guid, guid, cards), deck });
  const job = await staged(
    alice,
    [
      [inDeck(["Bio", "Cells"], "t1", [{ ...studied, reviews: [answer(9), answer(2)] }]), inDeck(["Bio"], "t2")],
      // A deck only a later batch names still takes the preset staged with the first.
      [inDeck(["Bio", "Genes"], "t3"), inDeck(["Chem"], "t4")],
    ],
    {
      deckTree: true,
      first: {
        presets: [exam],
        deck_presets: [
          { deck: ["Bio", "Cells"], preset: exam.key },
          { deck: ["Bio", "Genes"], preset: exam.key },
        ],
      },
    },
  );
  const tree = () =>
    db.query<{ name: string; members: number; notes: number; preset: string | null }>(
      `with recursive tree (id, name) as (
         select id, name from decks where id = $1
         union all
         select d.id, t.name || '::' || d.name from decks d join tree t on d.parent_id = t.id
       )
       select t.name, (select count(*)::int from deck_members m where m.deck_id = t.id) as members,
              (select count(*)::int from notes n where n.deck_id = t.id) as notes,
              (select p.name from decks d join deck_presets p on p.id = d.preset_id where d.id = t.id) as preset
       from tree t order by t.name`,
      [job.deck_id],
    );
  expect(await step(alice, job.id)).toMatchObject({ status: "running", finishing: { batch: 0 } });
  expect(await tree()).toEqual([
    { name: "Stepped", members: 0, notes: 0, preset: null },
    { name: "Stepped::Bio", members: 0, notes: 1, preset: null },
    { name: "Stepped::Bio::Cells", members: 0, notes: 1, preset: "Stepped exam" },
  ]);
  expect(await step(alice, job.id)).toMatchObject({ status: "running", finishing: { batch: 1 } });
  // Nothing of the tree is listed to its importer yet.
  const listed = await actAs(db, alice, (tx) =>
    tx.query("select d.name from decks d join deck_members m on m.deck_id = d.id where d.name in ('Bio', 'Chem')"),
  );
  expect(listed).toEqual([]);

  const done = await finish(alice, job.id);
  expect(done).toMatchObject({ status: "done", summary: { notes_added: 4, cards: 4, reviews_added: 2 } });
  expect(await tree()).toEqual([
    { name: "Stepped", members: 1, notes: 0, preset: null },
    { name: "Stepped::Bio", members: 1, notes: 1, preset: null },
    { name: "Stepped::Bio::Cells", members: 1, notes: 1, preset: "Stepped exam" },
    { name: "Stepped::Bio::Genes", members: 1, notes: 1, preset: "Stepped exam" },
    { name: "Stepped::Chem", members: 1, notes: 1, preset: null },
  ]);
  // One schedule per card for the importer, the studied one as the file has it.
  const states = await db.query<{ guid: string; state: string }>(
    `select n.source_guid as guid, s.state from card_states s join notes n on n.id = s.note_id
     where s.user_id = $1 and n.source_guid in ('t1', 't2', 't3', 't4') order by guid`,
    [alice.id],
  );
  expect(states).toEqual([
    { guid: "t1", state: "review" },
    { guid: "t2", state: "new" },
    { guid: "t3", state: "new" },
    { guid: "t4", state: "new" },
  ]);
});

test("a guid an earlier step added, in any deck of the tree, is skipped: the file's first note of it counts", async () => {
  const inDeck = (deck: string[], guid: string) => ({ ...note(guid, `${guid} in ${deck.join("::")}`), deck });
  const job = await staged(
    alice,
    [
      [inDeck(["Twice", "Bio"], "d1"), inDeck(["Twice", "Chem"], "d2")],
      [inDeck(["Twice", "Chem"], "d1"), inDeck(["Twice", "Bio"], "d2"), inDeck(["Twice", "Bio"], "d3")],
    ],
    { deckTree: true },
  );
  await step(alice, job.id);
  await step(alice, job.id);
  expect(await finish(alice, job.id)).toMatchObject({
    status: "done",
    summary: { notes_added: 3, notes_skipped: 2 },
  });
  const notes = await db.query<{ deck: string; front: string }>(
    `select d.name as deck, n.fields ->> 'front' as front
     from notes n join decks d on d.id = n.deck_id
     where n.source_guid in ('d1', 'd2', 'd3') and n.created_by = $1 order by front`,
    [alice.id],
  );
  expect(notes).toEqual([
    { deck: "Bio", front: "d1 in Twice::Bio" },
    { deck: "Chem", front: "d2 in Twice::Chem" },
    { deck: "Bio", front: "d3 in Twice::Bio" },
  ]);
});

test("in a tree of more decks than a note is probed in, an earlier step's guid is still skipped", async () => {
  const decks = Array.from({ length: 70 }, (_, i) => ["Wide", `Deck ${i}`]);
  const job = await staged(
    alice,
    [
      decks.map((deck, i) => ({ ...note(`w${i}`, `w${i} first`), deck })),
      [
        { ...note("w0", "w0 again"), deck: decks[69] },
        { ...note("w70", "w70"), deck: decks[0] },
      ],
    ],
    { deckTree: true },
  );
  await step(alice, job.id);
  await step(alice, job.id);
  expect(await finish(alice, job.id)).toMatchObject({
    status: "done",
    summary: { notes_added: 71, notes_skipped: 1 },
  });
  const w0 = await db.query<{ deck: string; front: string }>(
    `select d.name as deck, n.fields ->> 'front' as front
     from notes n join decks d on d.id = n.deck_id
     where n.source_guid = 'w0' and n.created_by = $1`,
    [alice.id],
  );
  expect(w0).toEqual([{ deck: "Deck 0", front: "w0 first" }]);
});

test("abandoning a deck tree imported in steps removes every deck it made", async () => {
  const job = await staged(
    alice,
    [[{ ...note("g1", "G1"), deck: ["Gone", "Sub"] }], [{ ...note("g2", "G2"), deck: ["Gone"] }]],
    { deckTree: true },
  );
  await step(alice, job.id);
  await actAs(db, alice, (tx) => tx.query("select abandon_import(p_job_id => $1)", [job.id]));
  expect(await db.query("select 1 from decks where name in ('Gone', 'Sub') and owner_id = $1", [alice.id])).toEqual([]);
  expect(await db.query("select 1 from notes where source_guid in ('g1', 'g2')")).toEqual([]);
});
