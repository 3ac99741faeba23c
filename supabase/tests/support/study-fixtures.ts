import { randomUUID } from "node:crypto";
import type { CardSchedule, CardState } from "@engram/core";
import type { Database, Queryable } from "@engram/local-stack";
import { type Actor, actAs, type DatabaseError } from "./database.js";

/**
 * Fixtures for the RPC tests: decks, members, notes and schedules made the
 * way the app makes them (as the user, through RLS), plus a few table-owner
 * shortcuts (`db.query` runs as the superuser that owns the tables) for
 * states no RPC can produce, such as a card due last week.
 */

export type User = Actor & { kind: "user" };
export type { CardState };
export type Role = "owner" | "editor" | "viewer";

/** A `card_states` row as pg and PGlite both return it. */
export interface CardStateRow extends CardSchedule {
  user_id: string;
  card_id: string;
  deck_id: string;
  suspended: boolean;
  buried_until: Date | null;
  flag: number;
  /** When an answer last marked the card a leech for this user. */
  leech_at: Date | null;
  version: number;
  updated_at: Date;
}

/** The only row of a result, or a failure naming what was expected. */
export function only<T>(rows: T[], what = "row"): T {
  if (rows.length !== 1) throw new Error(`expected exactly one ${what}, got ${rows.length}`);
  return rows[0] as T;
}

export interface DeckOptions {
  name?: string;
  isPublic?: boolean;
  newPerDay?: number | null;
  reviewsPerDay?: number | null;
}

/** The error a call failed with; fails the test if the call succeeded. */
export async function failure(call: Promise<unknown>): Promise<DatabaseError> {
  try {
    await call;
  } catch (error) {
    return error as DatabaseError;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** A deck created by `owner` (who becomes its owner member by trigger). */
export async function createDeck(db: Database, owner: User, options: DeckOptions = {}): Promise<string> {
  const rows = await actAs(db, owner, (tx) =>
    tx.query<{ id: string }>(
      `insert into decks (name, is_public, new_per_day, reviews_per_day) values ($1, $2, $3, $4) returning id`,
      [options.name ?? "Deck", options.isPublic ?? false, options.newPerDay ?? null, options.reviewsPerDay ?? null],
    ),
  );
  return only(rows, "deck").id;
}

/**
 * `member` joins the deck the only way there is: `owner` creates a one-use
 * invite with `role` and `member` accepts it.
 */
export async function addMember(
  db: Database,
  owner: User,
  deckId: string,
  member: User,
  role: "editor" | "viewer" = "viewer",
): Promise<void> {
  const token = await actAs(db, owner, async (tx) => {
    const rows = await tx.query<{ token: string }>("select token from create_invite($1, $2, 1, 1)", [deckId, role]);
    return only(rows, "invite").token;
  });
  await actAs(db, member, (tx) => tx.query("select accept_invite($1)", [token]));
}

export type NoteInput =
  | { kind: "basic" | "basic_reversed" | "type_in"; fields: { front: string; back: string }; tags?: string[] }
  | { kind: "cloze"; fields: { text: string; extra?: string }; tags?: string[] };

export const basic = (front: string, back: string, tags: string[] = []): NoteInput => ({
  kind: "basic",
  fields: { front, back },
  tags,
});
export const reversed = (front: string, back: string, tags: string[] = []): NoteInput => ({
  kind: "basic_reversed",
  fields: { front, back },
  tags,
});
export const typeIn = (front: string, back: string, tags: string[] = []): NoteInput => ({
  kind: "type_in",
  fields: { front, back },
  tags,
});
export const cloze = (text: string, extra = "", tags: string[] = []): NoteInput => ({
  kind: "cloze",
  fields: { text, extra },
  tags,
});

export interface AddedNote {
  noteId: string;
  /** The note's cards, by ordinal. */
  cardIds: string[];
}

/** Inserts a note in `tx` (acting as an owner or editor), returning it with its generated cards. */
export async function insertNote(tx: Queryable, deckId: string, note: NoteInput): Promise<AddedNote> {
  const { id } = only(
    await tx.query<{ id: string }>(
      "insert into notes (deck_id, kind, fields, tags) values ($1, $2, $3, $4) returning id",
      [deckId, note.kind, JSON.stringify(note.fields), note.tags ?? []],
    ),
    "note",
  );
  const cards = await tx.query<{ id: string }>("select id from cards where note_id = $1 order by ordinal", [id]);
  return { noteId: id, cardIds: cards.map((card) => card.id) };
}

/** Adds notes in one transaction (so they share created_at, hence their new cards' due). */
export function addNotes(db: Database, author: User, deckId: string, notes: NoteInput[]): Promise<AddedNote[]> {
  return actAs(db, author, async (tx) => {
    const added: AddedNote[] = [];
    for (const note of notes) added.push(await insertNote(tx, deckId, note));
    return added;
  });
}

export async function addNote(db: Database, author: User, deckId: string, note: NoteInput): Promise<AddedNote> {
  return only(await addNotes(db, author, deckId, [note]));
}

/** `count` basic notes ("<prefix> 1" ...), returning their single cards in insertion order. */
export async function addBasicCards(
  db: Database,
  author: User,
  deckId: string,
  count: number,
  prefix = "Card",
): Promise<string[]> {
  const notes = Array.from({ length: count }, (_, i) => basic(`${prefix} ${i + 1}`, `Back ${i + 1}`));
  return (await addNotes(db, author, deckId, notes)).map((note) => only(note.cardIds, "card"));
}

/** One basic card per name (the name is its front), as a name → card id map. */
export async function addNamedCards<Name extends string>(
  db: Database,
  author: User,
  deckId: string,
  names: readonly Name[],
): Promise<Record<Name, string>> {
  const added = await addNotes(
    db,
    author,
    deckId,
    names.map((name) => basic(name, `Back of ${name}`)),
  );
  return Object.fromEntries(names.map((name, i) => [name, only(added[i]?.cardIds ?? [], "card")])) as Record<
    Name,
    string
  >;
}

/** The user's schedule of a card, read as the table owner (undefined when absent). */
export async function stateOf(db: Queryable, userId: string, cardId: string): Promise<CardStateRow | undefined> {
  const rows = await db.query<CardStateRow>("select * from card_states where user_id = $1 and card_id = $2", [
    userId,
    cardId,
  ]);
  return rows[0];
}

/** The same row as `to_jsonb` renders it, to compare with an error's `detail`. */
export async function stateJson(db: Queryable, userId: string, cardId: string): Promise<unknown> {
  const rows = await db.query<{ j: unknown }>(
    "select to_jsonb(s) as j from card_states s where user_id = $1 and card_id = $2",
    [userId, cardId],
  );
  return only(rows, "card state").j;
}

type SchedulePatch = Partial<
  Omit<CardStateRow, "user_id" | "card_id" | "deck_id" | "due" | "last_review" | "buried_until" | "leech_at">
> & {
  due?: Date | string;
  last_review?: Date | string | null;
  buried_until?: Date | string | null;
  leech_at?: Date | string | null;
};

const patchableColumns = new Set([
  "state",
  "due",
  "stability",
  "difficulty",
  "elapsed_days",
  "scheduled_days",
  "learning_steps",
  "reps",
  "lapses",
  "last_review",
  "suspended",
  "buried_until",
  "flag",
  "leech_at",
  "version",
]);

/** Sets a schedule directly as the table owner, e.g. a review due last week. */
export async function setState(db: Database, userId: string, cardId: string, patch: SchedulePatch): Promise<void> {
  const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
  for (const [column] of entries) {
    if (!patchableColumns.has(column)) throw new Error(`not a schedule column: ${column}`);
  }
  const assignments = entries.map(([column], i) => `${column} = $${i + 3}`).join(", ");
  const rows = await db.query(
    `update card_states set ${assignments} where user_id = $1 and card_id = $2 returning card_id`,
    [userId, cardId, ...entries.map(([, value]) => value)],
  );
  only(rows, "card state to patch");
}

/** A review schedule due at `due`, as FSRS would leave it after a few good answers. */
export function reviewDue(due: string, extra: SchedulePatch = {}): SchedulePatch {
  return {
    state: "review",
    due,
    stability: 12.5,
    difficulty: 4.2,
    elapsed_days: 5,
    scheduled_days: 12,
    reps: 4,
    last_review: new Date(new Date(due).getTime() - 12 * 86_400_000),
    ...extra,
  };
}

export interface ProfilePatch {
  timezone?: string;
  day_starts_at?: number;
  new_per_day?: number;
  reviews_per_day?: number;
}

/** The user edits their own settings, as the settings screen does. */
export async function updateProfile(db: Database, user: User, patch: ProfilePatch): Promise<void> {
  const entries = Object.entries(patch);
  const assignments = entries.map(([column], i) => `${column} = $${i + 1}`).join(", ");
  await actAs(db, user, (tx) =>
    tx.query(
      `update profiles set ${assignments} where id = auth.uid()`,
      entries.map(([, value]) => value),
    ),
  );
}

export interface ReviewInput {
  cardId: string;
  expectedVersion: number | null;
  clientReviewId?: string;
  rating?: number;
  reviewedAt?: Date | string;
  durationMs?: number;
  state?: CardState;
  due?: Date | string;
  stability?: number;
  difficulty?: number;
  elapsedDays?: number;
  scheduledDays?: number;
  learningSteps?: number;
  reps?: number;
  lapses?: number;
}

/**
 * Calls record_review with named arguments, as PostgREST does. Unless told
 * otherwise: "Good" on a new card one minute ago, which FSRS answers with
 * the second learning step (due ten minutes later).
 */
export async function recordReview(tx: Queryable, input: ReviewInput): Promise<CardStateRow> {
  const reviewedAt = new Date(input.reviewedAt ?? Date.now() - 60_000);
  const rows = await tx.query<CardStateRow>(
    `select * from record_review(
       p_card_id => $1, p_client_review_id => $2, p_rating => $3, p_reviewed_at => $4, p_duration_ms => $5,
       p_expected_version => $6, p_state => $7, p_due => $8, p_stability => $9, p_difficulty => $10,
       p_elapsed_days => $11, p_scheduled_days => $12, p_learning_steps => $13, p_reps => $14, p_lapses => $15)`,
    [
      input.cardId,
      input.clientReviewId ?? randomUUID(),
      input.rating ?? 3,
      reviewedAt.toISOString(),
      input.durationMs ?? 4200,
      input.expectedVersion,
      input.state ?? "learning",
      new Date(input.due ?? reviewedAt.getTime() + 10 * 60_000).toISOString(),
      input.stability ?? 2.3065,
      input.difficulty ?? 2.118104,
      input.elapsedDays ?? 0,
      input.scheduledDays ?? 0,
      input.learningSteps ?? 1,
      input.reps ?? 1,
      input.lapses ?? 0,
    ],
  );
  return only(rows, "record_review result");
}

export async function undoReview(tx: Queryable, clientReviewId: string): Promise<CardStateRow> {
  return only(
    await tx.query<CardStateRow>("select * from undo_review(p_client_review_id => $1)", [clientReviewId]),
    "undo_review result",
  );
}

/** A review_logs row as stored. */
export interface ReviewLogRow {
  id: string;
  user_id: string;
  card_id: string;
  client_review_id: string;
  rating: number;
  state: CardState;
  due: Date;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  last_elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reviewed_at: Date;
  duration_ms: number;
  previous: Record<string, unknown>;
  created_at: Date;
}

/** A user's review logs (of one card, when given), oldest first, read as the table owner. */
export function logsOf(db: Queryable, userId: string, cardId?: string): Promise<ReviewLogRow[]> {
  return db.query<ReviewLogRow>(
    `select * from review_logs where user_id = $1 and ($2::uuid is null or card_id = $2)
     order by reviewed_at, created_at`,
    [userId, cardId ?? null],
  );
}

/**
 * Inserts a review log as the table owner, for a known history in the past.
 * Only what the stats read is chosen; the rest is a plausible constant.
 */
export async function insertLog(
  db: Database,
  log: { userId: string; cardId: string; rating: number; state: CardState; reviewedAt: string },
): Promise<void> {
  await db.query(
    `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
       elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
     values ($1, $2, gen_random_uuid(), $3, $4, $5, 10, 5, 3, 7, $5, 5000, '{}')`,
    [log.userId, log.cardId, log.rating, log.state, log.reviewedAt],
  );
}

/**
 * An Anki option group as an import stages it (stage_import's `presets`):
 * limits, leech handling and burying unlike the defaults; `key` and
 * `source_id` are the group's Anki id.
 */
export function stagedPreset(name: string, ankiId: number) {
  return {
    key: String(ankiId),
    name,
    new_per_day: 7,
    reviews_per_day: 150,
    leech_threshold: 5,
    leech_action: "tag_only",
    bury_new: true,
    bury_reviews: false,
    bury_interday_learning: true,
    source_id: ankiId,
  };
}
