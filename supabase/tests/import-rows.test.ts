import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addMember,
  addNotes,
  basic,
  cloze,
  createDeck,
  type NoteInput,
  only,
  reversed,
  typeIn,
  type User,
} from "./support/study-fixtures.js";

// finish_import writes in a few set-based statements what the one-row-at-a-time
// triggers write for a note added by hand: the same note columns, cards,
// schedules, history and live updates, plus the importer's own schedules as
// a 'new' schedule with the file's applied (version 1 when the file changed it).

let db: Database;
let alice: User;
let carol: User;

beforeAll(async () => {
  db = await openTestDatabase();
  [alice, carol] = await Promise.all([
    createUser(db, { displayName: "Alice" }),
    createUser(db, { displayName: "Carol" }),
  ]);
});
afterAll(() => db?.close());

interface StagedCard {
  ordinal: number;
  suspended?: boolean;
  buried_until?: string | null;
  schedule?: Record<string, unknown> | null;
  reviews?: Record<string, unknown>[];
}

async function importNotes(user: User, deckId: string, notes: Record<string, unknown>[]) {
  const jobId = randomUUID();
  await actAs(db, user, async (tx) => {
    await tx.query("select start_import($1, 'apkg', $2, $3)", [jobId, notes.length, deckId]);
  });
  await actAs(db, user, (tx) =>
    tx.query("select stage_import($1, 0, $2, $3)", [jobId, JSON.stringify({ notes }), notes.length]),
  );
  await actAs(db, user, (tx) => tx.query("select finish_import($1, '{}')", [jobId]));
}

async function deckOfTwo(name: string) {
  const deck = await createDeck(db, alice, { name });
  await addMember(db, alice, deck, carol, "viewer");
  return deck;
}

/** The columns the triggers derive for each note of a deck, in the deck's order. */
const derived = (deckId: string) =>
  db.query<Record<string, unknown>>(
    `select n.kind, n.fields, n.tags, n.version, n.search::text as search, n.plain_text, n.sort_field,
            n.created_by, n.updated_by,
            -- the search vector as prepare_note built it before it wrote strip_markup out
            n.search = to_tsvector('simple', concat_ws(' ',
              private.strip_markup(n.fields ->> 'front'), private.strip_markup(n.fields ->> 'back'),
              private.strip_markup(n.fields ->> 'text'), private.strip_markup(n.fields ->> 'extra'),
              case when n.kind = 'custom' then
                (select string_agg(private.strip_markup(v), ' ') from jsonb_each_text(n.fields) as f(k, v)) end,
              array_to_string(n.tags, ' '))) as search_as_before,
            (select array_agg(c.ordinal order by c.ordinal) from cards c where c.note_id = n.id) as ordinals,
            (select jsonb_agg(jsonb_build_object('state', s.state, 'due_is_created', s.due = c.created_at,
                'reps', s.reps, 'suspended', s.suspended, 'buried_until', s.buried_until, 'version', s.version)
                order by c.ordinal)
             from cards c join card_states s on s.card_id = c.id and s.user_id = $2
             where c.note_id = n.id) as carol_states,
            (select jsonb_agg(jsonb_build_object('action', h.action, 'version', h.version, 'kind', h.kind,
                'fields', h.fields, 'tags', h.tags, 'author', h.author_id = n.created_by))
             from note_history h where h.note_id = n.id) as history
     from notes n where n.deck_id = $1 order by n.sort_field`,
    [deckId, carol.id],
  );

const notes: NoteInput[] = [
  basic("<b>France</b>&nbsp;capital", "<div>Paris</div><br>&amp; more", ["geo", "europe"]),
  reversed("Japan", "<br>", ["geo"]),
  reversed("Peru", "Lima"),
  typeIn("Spell <i>necessary</i>", "necessary"),
  cloze("{{c1::Canberra}} is in {{c2::Australia::continent}}", "<p>extra</p>", ["oceania"]),
];

describe("an import writes the rows the one-note-at-a-time path writes", () => {
  test("notes, cards, the other member's schedules and history match notes added by hand", async () => {
    const [imported, byHand] = [await deckOfTwo("Imported"), await deckOfTwo("By hand")];
    await importNotes(
      alice,
      imported,
      notes.map((note, i) => ({ guid: `g${i}`, ...note })),
    );
    await addNotes(db, alice, byHand, notes);

    const [fromImport, fromHand] = [await derived(imported), await derived(byHand)];
    expect(fromImport).toHaveLength(notes.length);
    expect(fromImport).toEqual(fromHand);
    for (const row of fromImport) expect(row.search_as_before).toBe(true);
    // Canberra, France, Japan (an empty back makes no reverse card), Peru, Spell.
    expect(fromImport.map((row) => row.ordinals)).toEqual([[1, 2], [1], [1], [1, 2], [1]]);
    expect(fromImport[1]?.plain_text).toBe("France capital\u001fParis & more");
    // Alice's own schedules of cards the file gives none for are the trigger's 'new' ones too.
    const alices = await db.query<{ same: boolean }>(
      `select (s.state, s.due, s.version, s.suspended, s.buried_until)
         is not distinct from ('new'::card_state, c.created_at, 0, false, null::timestamptz) as same
       from cards c join card_states s on s.card_id = c.id and s.user_id = $2 where c.deck_id = $1`,
      [imported, alice.id],
    );
    expect(alices.map((row) => row.same)).toEqual(Array(7).fill(true));
  });

  test("the importer's schedules are the file's, version 1 where the file changed one; others start new", async () => {
    const deck = await deckOfTwo("Scheduled");
    const lastReview = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const buriedUntil = new Date(Date.now() + 86_400_000).toISOString();
    const schedule = {
      state: "review",
      due,
      stability: 12,
      difficulty: 4.5,
      elapsed_days: 3,
      scheduled_days: 10,
      learning_steps: 0,
      reps: 3,
      lapses: 1,
      last_review: lastReview,
    };
    const review = (days: number) => ({
      client_review_id: randomUUID(),
      rating: 3,
      state: "review",
      due: new Date(Date.now() - days * 86_400_000).toISOString(),
      stability: 5,
      difficulty: 5,
      elapsed_days: 1,
      scheduled_days: 5,
      reviewed_at: new Date(Date.now() - days * 86_400_000).toISOString(),
      duration_ms: 3000,
    });
    const cards: StagedCard[] = [
      { ordinal: 1, schedule, reviews: [review(9), review(3)] },
      { ordinal: 1, suspended: true },
      { ordinal: 1, buried_until: buriedUntil },
      { ordinal: 1, schedule: null, suspended: false, buried_until: null, reviews: [] },
    ];
    await importNotes(
      alice,
      deck,
      cards.map((card, i) => ({ guid: `s${i}`, kind: "basic", fields: { front: `Q${i}`, back: "A" }, cards: [card] })),
    );
    const states = await db.query<Record<string, unknown>>(
      `select n.source_guid as guid, s.user_id = $2 as mine, s.state, s.due = c.created_at as due_is_created,
              s.due, s.stability, s.difficulty, s.elapsed_days, s.scheduled_days, s.reps, s.lapses,
              s.last_review, s.suspended, s.buried_until, s.version
       from notes n join cards c on c.note_id = n.id join card_states s on s.card_id = c.id
       where n.deck_id = $1 order by n.source_guid, mine desc`,
      [deck, alice.id],
    );
    const fresh = {
      state: "new",
      due_is_created: true,
      stability: 0,
      difficulty: 0,
      elapsed_days: 0,
      scheduled_days: 0,
      reps: 0,
      lapses: 0,
      last_review: null,
      suspended: false,
      buried_until: null,
      version: 0,
    };
    const strip = ({ due: _due, ...rest }: Record<string, unknown>) => rest;
    expect(states.map(strip)).toEqual([
      {
        guid: "s0",
        mine: true,
        ...fresh,
        state: "review",
        due_is_created: false,
        stability: 12,
        difficulty: 4.5,
        elapsed_days: 3,
        scheduled_days: 10,
        reps: 3,
        lapses: 1,
        last_review: new Date(lastReview),
        version: 1,
      },
      { guid: "s0", mine: false, ...fresh },
      { guid: "s1", mine: true, ...fresh, suspended: true, version: 1 },
      { guid: "s1", mine: false, ...fresh },
      { guid: "s2", mine: true, ...fresh, buried_until: new Date(buriedUntil), version: 1 },
      { guid: "s2", mine: false, ...fresh },
      { guid: "s3", mine: true, ...fresh },
      { guid: "s3", mine: false, ...fresh },
    ]);
    expect(states[0]?.due).toEqual(new Date(due));

    // The two answers are counted in the importer's review figures, as any answer is.
    const counted = await db.query<{ reviews: number }>(
      "select coalesce(sum(reviews), 0)::int as reviews from private.review_counts where user_id = $1",
      [alice.id],
    );
    expect(only(counted).reviews).toBe(2);
  });

  test("an import announces each of its statements once: notes, cards and the importer's schedules", async () => {
    const deck = await deckOfTwo("Live");
    const topics = [`deck:${deck}`, `user:${alice.id}`, `user:${carol.id}`];
    const before = await db.query<{ id: string }>("select id::text from realtime.messages where topic = any($1)", [
      topics,
    ]);
    await importNotes(
      alice,
      deck,
      notes.map((note, i) => ({ guid: `l${i}`, ...note, cards: [{ ordinal: 1, suspended: true }] })),
    );
    const seen = new Set(before.map((row) => row.id));
    const sent = (
      await db.query<{ id: string; topic: string; payload: Record<string, unknown> }>(
        "select id::text, topic, payload from realtime.messages where topic = any($1)",
        [topics],
      )
    ).filter((row) => !seen.has(row.id) && row.payload.table !== "import_jobs");
    // One message per statement finish_import runs: the notes, their cards, and
    // the importer's schedules; the other member's, written by a trigger, go unannounced.
    const said = sent.map((row) => ({ topic: row.topic, table: String(row.payload.table), type: row.payload.type }));
    expect(said.sort((a, b) => a.table.localeCompare(b.table))).toEqual([
      { topic: `user:${alice.id}`, table: "card_states", type: "insert" },
      { topic: `deck:${deck}`, table: "cards", type: "insert" },
      { topic: `deck:${deck}`, table: "notes", type: "insert" },
    ]);
  });
});
