// Who may read and write what in `public`, cell by cell, as docs/product.md §6
// (with §3 and §7) says. Every cell runs in its own rolled-back transaction,
// so cells are independent and share one set of fixtures.

import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, anon, openTestDatabase, probeAs, service } from "./support/database.js";
import {
  ALLOWED,
  buildWorld,
  type Column,
  EMPTY,
  type Expected,
  expectOutcome,
  must,
  NA,
  NOOP,
  PERM,
  type Probe,
  RLS,
  type World,
} from "./support/fixtures.js";

let db: Database;
let world: World;
/** A suggestion Cleo (a viewer) made in the private deck. */
let classmatesSuggestion: string;
beforeAll(async () => {
  db = await openTestDatabase();
  world = await buildWorld(db);
  await addPersonalNotes(db, world);
  classmatesSuggestion = await addSuggestion(db, world);
  await addStudyDayExtras(db, world);
});
afterAll(() => db?.close());

type Table =
  | "profiles"
  | "decks"
  | "deck_members"
  | "deck_invites"
  | "notes"
  | "note_types"
  | "cards"
  | "card_states"
  | "review_logs"
  | "import_jobs"
  | "deck_presets"
  | "personal_notes"
  | "note_history"
  | "note_suggestions"
  | "study_day_extras";
type Operation = "select" | "insert" | "update" | "delete";
type ActorName = "anon" | "non-member" | "viewer" | "editor" | "owner";
/**
 * What a cell aims at. Deck tables: the private deck (where the viewer, editor
 * and owner are members) or the public deck (owned by the same owner, no
 * other members). Per-user tables: the caller's own rows, or those of another
 * user — Cleo, who is a member of the owner's private deck, so "another
 * user's" covers co-members as well as strangers.
 */
type Target = "private deck" | "public deck" | "own" | "another user's" | "own membership";

const actors: readonly ActorName[] = ["anon", "non-member", "viewer", "editor", "owner"];

// NA cells: anon has no rows of its own, and only members can leave a deck.

interface Cell {
  name: string;
  table: Table;
  operation: Operation;
  target: Target;
  actor: ActorName;
  expected: Expected;
}

function row(
  table: Table,
  operation: Operation,
  target: Target,
  ...expected: [Column, Column, Column, Column, Column]
): Cell[] {
  return actors.flatMap((actor, i) => {
    const outcome = expected[i];
    if (!outcome) return [];
    return [
      { name: cellName(table, operation, target, actor, outcome), table, operation, target, actor, expected: outcome },
    ];
  });
}

function cellName(table: Table, operation: Operation, target: Target, actor: ActorName, expected: Expected): string {
  const subject = {
    "private deck": table,
    "public deck": `${table} of a public deck`,
    own: table === "decks" ? "decks (a new deck of their own)" : `their own ${table}`,
    "another user's": `another user's ${table}`,
    "own membership": `their own deck_members row (leave the deck)`,
  }[target];
  return expected === ALLOWED
    ? `${actor} can ${operation} ${subject}`
    : `${actor} cannot ${operation} ${subject} (${expected})`;
}

// The matrix. Columns: anon, signed-in non-member, viewer, editor, owner.
// Sources: docs/product.md §6's table; "Nobody ever reads another user's card_states,
// review_logs, profiles settings, import_jobs"; §3 (profiles created by
// trigger, cards generated from notes); §7 (card_states and import_jobs are
// read-only tables, writes go through RPCs and functions; invites are created
// with create_invite).
// biome-ignore format: the matrix is laid out as a table, one row per table and operation
const matrix: Cell[] = [
  //     table           operation target             anon     non-member viewer   editor   owner
  // "see deck, notes, cards": members, or anyone if public; "rename, limits,
  // public toggle" and "delete deck": owner only; anyone signed in may create a
  // deck, which they then own.
  ...row("decks",        "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("decks",        "select", "public deck",     ALLOWED, ALLOWED,   NA,      NA,      NA),
  ...row("decks",        "insert", "own",             PERM,    ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("decks",        "update", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),
  ...row("decks",        "update", "public deck",     PERM,    NOOP,      NA,      NA,      NA),
  ...row("decks",        "delete", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),
  ...row("decks",        "delete", "public deck",     PERM,    NOOP,      NA,      NA,      NA),

  // Members read co-members' membership rows; "invite, change roles, remove
  // members": owner only (never creating a second owner); "leave deck":
  // editors and viewers, not the owner ("transfer first"). Nobody adds a
  // member directly, not even the owner: user ids are visible (owner_id,
  // created_by), so that would pull anyone into a deck without their consent.
  // Users join by accepting an invite (accept_invite) or by creating the deck.
  ...row("deck_members", "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("deck_members", "select", "public deck",     EMPTY,   EMPTY,     NA,      NA,      NA),
  ...row("deck_members", "insert", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("deck_members", "insert", "public deck",     PERM,    PERM,      NA,      NA,      NA),
  ...row("deck_members", "update", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),
  ...row("deck_members", "delete", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),
  ...row("deck_members", "delete", "own membership",  NA,      NA,        ALLOWED, ALLOWED, NOOP),

  // Invites: created only by create_invite (so never by a direct insert, not
  // even the owner's); seen, revoked and deleted only by the owner.
  ...row("deck_invites", "select", "private deck",    PERM,    EMPTY,     EMPTY,   EMPTY,   ALLOWED),
  ...row("deck_invites", "insert", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("deck_invites", "update", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),
  ...row("deck_invites", "delete", "private deck",    PERM,    NOOP,      NOOP,    NOOP,    ALLOWED),

  // "add/edit/delete notes": owner and editor; read with the deck.
  ...row("notes",        "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("notes",        "select", "public deck",     ALLOWED, ALLOWED,   NA,      NA,      NA),
  ...row("notes",        "insert", "private deck",    PERM,    RLS,       RLS,     ALLOWED, ALLOWED),
  ...row("notes",        "insert", "public deck",     PERM,    RLS,       NA,      NA,      NA),
  ...row("notes",        "update", "private deck",    PERM,    NOOP,      NOOP,    ALLOWED, ALLOWED),
  ...row("notes",        "update", "public deck",     PERM,    NOOP,      NA,      NA,      NA),
  ...row("notes",        "delete", "private deck",    PERM,    NOOP,      NOOP,    ALLOWED, ALLOWED),
  ...row("notes",        "delete", "public deck",     PERM,    NOOP,      NA,      NA,      NA),

  // Note types: read with the deck; added and deleted by the owner and editors,
  // changed only through update_note_type (which states the version).
  ...row("note_types",   "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("note_types",   "select", "public deck",     ALLOWED, ALLOWED,   NA,      NA,      NA),
  ...row("note_types",   "insert", "private deck",    PERM,    RLS,       RLS,     ALLOWED, ALLOWED),
  ...row("note_types",   "insert", "public deck",     PERM,    RLS,       NA,      NA,      NA),
  ...row("note_types",   "update", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("note_types",   "delete", "private deck",    PERM,    NOOP,      NOOP,    ALLOWED, ALLOWED),
  ...row("note_types",   "delete", "public deck",     PERM,    NOOP,      NA,      NA,      NA),

  // Cards are generated from notes: readable with the deck, never written directly.
  ...row("cards",        "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("cards",        "select", "public deck",     ALLOWED, ALLOWED,   NA,      NA,      NA),
  ...row("cards",        "insert", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("cards",        "update", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("cards",        "delete", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),

  // Schedules, logs and import jobs: each user reads their own (the non-member
  // has them for their clone of the public deck), nobody reads anyone
  // else's, and users write none directly (record_review, undo_review,
  // set_suspended and the import function do).
  ...row("card_states",  "select", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("card_states",  "select", "another user's",  PERM,    EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("card_states",  "insert", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("card_states",  "insert", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("card_states",  "update", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("card_states",  "update", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("card_states",  "delete", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("card_states",  "delete", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),

  ...row("review_logs",  "select", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("review_logs",  "select", "another user's",  PERM,    EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("review_logs",  "insert", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("review_logs",  "insert", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("review_logs",  "update", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("review_logs",  "update", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("review_logs",  "delete", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("review_logs",  "delete", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),

  ...row("import_jobs",  "select", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("import_jobs",  "select", "another user's",  PERM,    EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("import_jobs",  "insert", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("import_jobs",  "insert", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("import_jobs",  "update", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("import_jobs",  "update", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("import_jobs",  "delete", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("import_jobs",  "delete", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),

  // More new cards today: each user reads their own, written only through extend_study_day.
  ...row("study_day_extras", "select", "own",            NA,   ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("study_day_extras", "select", "another user's", PERM, EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("study_day_extras", "insert", "own",            NA,   PERM,      PERM,    PERM,    PERM),
  ...row("study_day_extras", "insert", "another user's", PERM, PERM,      PERM,    PERM,    PERM),
  ...row("study_day_extras", "update", "own",            NA,   PERM,      PERM,    PERM,    PERM),
  ...row("study_day_extras", "update", "another user's", PERM, PERM,      PERM,    PERM,    PERM),
  ...row("study_day_extras", "delete", "own",            NA,   PERM,      PERM,    PERM,    PERM),
  ...row("study_day_extras", "delete", "another user's", PERM, PERM,      PERM,    PERM,    PERM),

  // Deck presets: each user's own, read and written only by them.
  ...row("deck_presets", "select", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("deck_presets", "select", "another user's",  PERM,    EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("deck_presets", "insert", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("deck_presets", "insert", "another user's",  PERM,    RLS,       RLS,     RLS,     RLS),
  ...row("deck_presets", "update", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("deck_presets", "update", "another user's",  PERM,    NOOP,      NOOP,    NOOP,    NOOP),
  ...row("deck_presets", "delete", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("deck_presets", "delete", "another user's",  PERM,    NOOP,      NOOP,    NOOP,    NOOP),

  // Personal notes: each user's own tags and My notes on notes of decks they
  // read, read and written only by them (docs/product.md §3).
  ...row("personal_notes", "select", "own",           NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("personal_notes", "select", "another user's", PERM,   EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("personal_notes", "insert", "own",           NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("personal_notes", "insert", "another user's", PERM,   RLS,       RLS,     RLS,     RLS),
  ...row("personal_notes", "update", "own",           NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("personal_notes", "update", "another user's", PERM,   NOOP,      NOOP,    NOOP,    NOOP),
  ...row("personal_notes", "delete", "own",           NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("personal_notes", "delete", "another user's", PERM,   NOOP,      NOOP,    NOOP,    NOOP),

  // A note's history: read with the deck, written only by the database's triggers.
  // Suggestions: read by their author and the deck's owner and editors (not
  // its other members); written only through suggest_note_change and
  // review_suggestions (docs/product.md §4, §7). The target is another
  // viewer's suggestion.
  ...row("note_suggestions", "select", "private deck", PERM,  EMPTY,     EMPTY,   ALLOWED, ALLOWED),
  ...row("note_suggestions", "insert", "private deck", PERM,  PERM,      PERM,    PERM,    PERM),
  ...row("note_suggestions", "update", "private deck", PERM,  PERM,      PERM,    PERM,    PERM),
  ...row("note_suggestions", "delete", "private deck", PERM,  PERM,      PERM,    PERM,    PERM),

  ...row("note_history", "select", "private deck",    EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED),
  ...row("note_history", "select", "public deck",     ALLOWED, ALLOWED,   NA,      NA,      NA),
  ...row("note_history", "insert", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("note_history", "update", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("note_history", "delete", "private deck",    PERM,    PERM,      PERM,    PERM,    PERM),

  // Profiles: created by the sign-up trigger, removed with the account
  // (delete-account); each user reads and edits only their own. Co-members'
  // names and avatars come from deck_member_profiles, not from this table.
  ...row("profiles",     "select", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("profiles",     "select", "another user's",  EMPTY,   EMPTY,     EMPTY,   EMPTY,   EMPTY),
  ...row("profiles",     "insert", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("profiles",     "insert", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
  ...row("profiles",     "update", "own",             NA,      ALLOWED,   ALLOWED, ALLOWED, ALLOWED),
  ...row("profiles",     "update", "another user's",  PERM,    NOOP,      NOOP,    NOOP,    NOOP),
  ...row("profiles",     "delete", "own",             NA,      PERM,      PERM,    PERM,    PERM),
  ...row("profiles",     "delete", "another user's",  PERM,    PERM,      PERM,    PERM,    PERM),
];

/** What a probe needs to know about its cell. */
interface Context {
  w: World;
  actor: ActorName;
  target: Target;
}

function actorOf(w: World, name: ActorName): Actor {
  return { anon, "non-member": w.stranger, viewer: w.viewer, editor: w.editor, owner: w.owner }[name];
}

function deckOf({ w, target }: Context) {
  return target === "public deck" ? w.publicDeck : w.privateDeck;
}

/** Whose rows a per-user cell targets: the caller's own, or Cleo's. */
function subjectOf({ w, actor, target }: Context) {
  const user = target === "own" ? actorOf(w, actor) : w.classmate;
  if (user.kind !== "user") throw new Error(`${actor} has no rows of their own`);
  // The non-member studies their clone of the public deck; the others the private deck.
  const deck = user.id === w.stranger.id ? w.strangersClone : w.privateDeck;
  return {
    userId: user.id,
    deckId: deck.id,
    cardId: deck.cardId,
    noteId: deck.noteId,
    reviewLogId: must(w.reviewLogIds.get(user.id)),
    importJobId: must(w.importJobIds.get(user.id)),
    presetId: must(w.presetIds.get(user.id)),
  };
}

const ids = (rows: unknown[]) => rows.map((r) => (r as { id: string }).id);

const probes: Record<Table, Record<Operation, (c: Context) => Probe>> = {
  decks: {
    select: (c) => ({
      act: (tx) => tx.query("select id from decks where id = $1", [deckOf(c).id]),
      rows: (rows) => expect(ids(rows)).toEqual([deckOf(c).id]),
    }),
    insert: (c) => ({
      act: (tx) => tx.query("insert into decks (name) values ('Probe deck') returning id"),
      state: (q) => q.query("select owner_id from decks where name = 'Probe deck'"),
      // The new deck belongs to its creator, who becomes its owner member.
      effect: (after) => expect(after).toEqual([{ owner_id: userIdOf(c) }]),
    }),
    update: (c) => ({
      act: (tx) => tx.query("update decks set name = 'Renamed deck' where id = $1 returning id", [deckOf(c).id]),
      state: (q) => q.query("select name from decks where id = $1", [deckOf(c).id]),
      effect: (after) => expect(after).toEqual([{ name: "Renamed deck" }]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from decks where id = $1 returning id", [deckOf(c).id]),
      state: (q) => q.query("select id from decks where id = $1", [deckOf(c).id]),
      effect: (after) => expect(after).toEqual([]),
    }),
  },

  deck_members: {
    select: (c) => ({
      act: (tx) =>
        tx.query("select user_id, role from deck_members where deck_id = $1 order by role, user_id", [deckOf(c).id]),
      // A member sees every membership row of the deck, not just their own.
      rows: (rows) =>
        expect(rows).toEqual(
          expect.arrayContaining([
            { user_id: c.w.owner.id, role: "owner" },
            { user_id: c.w.editor.id, role: "editor" },
            { user_id: c.w.viewer.id, role: "viewer" },
            { user_id: c.w.classmate.id, role: "viewer" },
          ]),
        ),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query("insert into deck_members (deck_id, user_id, role) values ($1, $2, 'viewer') returning user_id", [
          deckOf(c).id,
          c.w.newcomer.id,
        ]),
      state: (q) => memberRole(q, deckOf(c).id, c.w.newcomer.id),
      effect: (after) => expect(after).toEqual([{ role: "viewer" }]),
    }),
    update: (c) => ({
      act: (tx) =>
        tx.query("update deck_members set role = 'editor' where deck_id = $1 and user_id = $2 returning user_id", [
          deckOf(c).id,
          c.w.classmate.id,
        ]),
      state: (q) => memberRole(q, deckOf(c).id, c.w.classmate.id),
      effect: (after) => expect(after).toEqual([{ role: "editor" }]),
    }),
    delete: (c) => {
      // Either removing Cleo (another member) or, for "own membership", leaving.
      const userId = c.target === "own membership" ? userIdOf(c) : c.w.classmate.id;
      return {
        act: (tx) =>
          tx.query("delete from deck_members where deck_id = $1 and user_id = $2 returning user_id", [
            deckOf(c).id,
            userId,
          ]),
        state: (q) => memberRole(q, deckOf(c).id, userId),
        effect: (after) => expect(after).toEqual([]),
      };
    },
  },

  deck_invites: {
    select: (c) => ({
      act: (tx) => tx.query("select id, token from deck_invites where id = $1", [c.w.privateDeck.inviteId]),
      rows: (rows) => expect(ids(rows)).toEqual([c.w.privateDeck.inviteId]),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query("insert into deck_invites (deck_id, role) values ($1, 'editor') returning id", [deckOf(c).id]),
      state: (q) => q.query("select id from deck_invites where deck_id = $1 order by id", [deckOf(c).id]),
    }),
    update: (c) => ({
      act: (tx) =>
        tx.query("update deck_invites set revoked_at = now() where id = $1 returning id", [c.w.privateDeck.inviteId]),
      state: (q) =>
        q.query("select revoked_at is not null as revoked from deck_invites where id = $1", [c.w.privateDeck.inviteId]),
      effect: (after) => expect(after).toEqual([{ revoked: true }]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from deck_invites where id = $1 returning id", [c.w.privateDeck.inviteId]),
      state: (q) => q.query("select id from deck_invites where id = $1", [c.w.privateDeck.inviteId]),
      effect: (after) => expect(after).toEqual([]),
    }),
  },

  notes: {
    select: (c) => ({
      act: (tx) => tx.query("select id from notes where id = $1", [deckOf(c).noteId]),
      rows: (rows) => expect(ids(rows)).toEqual([deckOf(c).noteId]),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query(
          `insert into notes (deck_id, kind, fields) values ($1, 'basic', '{"front": "Probe front", "back": "Probe back"}')
           returning id`,
          [deckOf(c).id],
        ),
      state: (q) =>
        q.query(
          `select n.created_by, (select count(*)::int from cards where note_id = n.id) as cards
           from notes n where n.deck_id = $1 and n.fields ->> 'front' = 'Probe front'`,
          [deckOf(c).id],
        ),
      // The note is credited to its writer and has generated its card.
      effect: (after) => expect(after).toEqual([{ created_by: userIdOf(c), cards: 1 }]),
    }),
    update: (c) => ({
      act: (tx) =>
        tx.query(
          `update notes set fields = '{"front": "Edited front", "back": "Edited back"}' where id = $1 returning id`,
          [deckOf(c).noteId],
        ),
      state: (q) => q.query("select fields ->> 'front' as front from notes where id = $1", [deckOf(c).noteId]),
      effect: (after) => expect(after).toEqual([{ front: "Edited front" }]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from notes where id = $1 returning id", [deckOf(c).noteId]),
      state: (q) => q.query("select id from notes where id = $1", [deckOf(c).noteId]),
      effect: (after) => expect(after).toEqual([]),
    }),
  },

  note_types: {
    select: (c) => ({
      act: (tx) => tx.query("select id from note_types where id = $1", [deckOf(c).noteTypeId]),
      rows: (rows) => expect(ids(rows)).toEqual([deckOf(c).noteTypeId]),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query(
          `insert into note_types (deck_id, name, fields, templates)
           values ($1, 'Probe type', array['Q'], '[{"name": "Card 1", "front": "{{Q}}", "back": "{{Q}}"}]')
           returning id`,
          [deckOf(c).id],
        ),
      state: (q) => q.query("select name from note_types where deck_id = $1 and name = 'Probe type'", [deckOf(c).id]),
      effect: (after) => expect(after).toEqual([{ name: "Probe type" }]),
    }),
    update: (c) => ({
      act: (tx) => tx.query("update note_types set css = 'p {}' where id = $1 returning id", [deckOf(c).noteTypeId]),
      state: (q) => q.query("select css from note_types where id = $1", [deckOf(c).noteTypeId]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from note_types where id = $1 returning id", [deckOf(c).noteTypeId]),
      state: (q) => q.query("select id from note_types where id = $1", [deckOf(c).noteTypeId]),
      effect: (after) => expect(after).toEqual([]),
    }),
  },

  cards: {
    select: (c) => ({
      act: (tx) => tx.query("select id from cards where id = $1", [deckOf(c).cardId]),
      rows: (rows) => expect(ids(rows)).toEqual([deckOf(c).cardId]),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query("insert into cards (note_id, deck_id, ordinal) values ($1, $2, 2) returning id", [
          deckOf(c).noteId,
          deckOf(c).id,
        ]),
      state: (q) => q.query("select ordinal from cards where note_id = $1", [deckOf(c).noteId]),
    }),
    update: (c) => ({
      act: (tx) => tx.query("update cards set ordinal = 7 where id = $1 returning id", [deckOf(c).cardId]),
      state: (q) => q.query("select ordinal from cards where id = $1", [deckOf(c).cardId]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from cards where id = $1 returning id", [deckOf(c).cardId]),
      state: (q) => q.query("select id from cards where id = $1", [deckOf(c).cardId]),
    }),
  },

  card_states: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query("select card_id from card_states where user_id = $1 and card_id = $2", [s.userId, s.cardId]),
        rows: (rows) => expect(rows).toEqual([{ card_id: s.cardId }]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            `insert into card_states (user_id, card_id, deck_id, state, due) values ($1, $2, $3, 'review', now() + interval '10 years')
             on conflict do nothing returning card_id`,
            [s.userId, s.cardId, s.deckId],
          ),
        state: (q) => scheduleOf(q, s.userId),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            "update card_states set due = now() + interval '10 years', suspended = true where user_id = $1 returning card_id",
            [s.userId],
          ),
        state: (q) => scheduleOf(q, s.userId),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from card_states where user_id = $1 returning card_id", [s.userId]),
        state: (q) => scheduleOf(q, s.userId),
      };
    },
  },

  review_logs: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select id from review_logs where id = $1", [s.reviewLogId]),
        rows: (rows) => expect(ids(rows)).toEqual([s.reviewLogId]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
               elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
             values ($1, $2, gen_random_uuid(), 4, 'review', now(), 100, 1, 0, 3650, now(), 1000, '{}') returning id`,
            [s.userId, s.cardId],
          ),
        state: (q) => q.query("select id, rating from review_logs where user_id = $1 order by id", [s.userId]),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("update review_logs set rating = 4 where id = $1 returning id", [s.reviewLogId]),
        state: (q) => q.query("select id, rating from review_logs where user_id = $1 order by id", [s.userId]),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from review_logs where id = $1 returning id", [s.reviewLogId]),
        state: (q) => q.query("select id, rating from review_logs where user_id = $1 order by id", [s.userId]),
      };
    },
  },

  study_day_extras: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select user_id from study_day_extras where user_id = $1", [s.userId]),
        rows: (rows) => expect(rows).toEqual([{ user_id: s.userId }]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            `insert into study_day_extras (user_id, deck_id, study_date, extra_new)
             values ($1, $2, current_date + 1, 9999) returning user_id`,
            [s.userId, s.deckId],
          ),
        state: (q) => extrasOf(q, s.userId),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query("update study_day_extras set extra_new = 9999 where user_id = $1 returning user_id", [s.userId]),
        state: (q) => extrasOf(q, s.userId),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from study_day_extras where user_id = $1 returning user_id", [s.userId]),
        state: (q) => extrasOf(q, s.userId),
      };
    },
  },

  import_jobs: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select id from import_jobs where id = $1", [s.importJobId]),
        rows: (rows) => expect(ids(rows)).toEqual([s.importJobId]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("insert into import_jobs (user_id, source) values ($1, 'csv') returning id", [s.userId]),
        state: (q) => q.query("select id, status from import_jobs where user_id = $1 order by id", [s.userId]),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query("update import_jobs set status = 'failed', error = 'probe' where id = $1 returning id", [
            s.importJobId,
          ]),
        state: (q) => q.query("select id, status from import_jobs where user_id = $1 order by id", [s.userId]),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from import_jobs where id = $1 returning id", [s.importJobId]),
        state: (q) => q.query("select id, status from import_jobs where user_id = $1 order by id", [s.userId]),
      };
    },
  },

  deck_presets: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select id from deck_presets where id = $1", [s.presetId]),
        rows: (rows) => expect(ids(rows)).toEqual([s.presetId]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query("insert into deck_presets (owner_id, name) values ($1, 'Probe preset') returning id", [s.userId]),
        state: (q) => q.query("select name from deck_presets where owner_id = $1 order by name", [s.userId]),
        effect: (after) => expect(after).toEqual([{ name: "Exam" }, { name: "Probe preset" }]),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("update deck_presets set new_per_day = 3 where id = $1 returning id", [s.presetId]),
        state: (q) => q.query("select new_per_day from deck_presets where id = $1", [s.presetId]),
        effect: (after) => expect(after).toEqual([{ new_per_day: 3 }]),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from deck_presets where id = $1 returning id", [s.presetId]),
        state: (q) => q.query("select id from deck_presets where id = $1", [s.presetId]),
        effect: (after) => expect(after).toEqual([]),
      };
    },
  },

  note_suggestions: {
    select: () => ({
      act: (tx) => tx.query("select id from note_suggestions where id = $1", [classmatesSuggestion]),
      rows: (rows) => expect(ids(rows)).toEqual([classmatesSuggestion]),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query(
          `insert into note_suggestions (deck_id, author_id, action, kind, fields, tags)
           values ($1, $2, 'create', 'basic', '{"front": "Q", "back": "A"}', '{}') returning id`,
          [deckOf(c).id, c.actor === "anon" ? world.viewer.id : userIdOf(c)],
        ),
      state: (q) =>
        q.query("select id from note_suggestions where deck_id = $1 and fields ->> 'front' = 'Q'", [deckOf(c).id]),
    }),
    update: () => ({
      act: (tx) =>
        tx.query("update note_suggestions set status = 'accepted' where id = $1 returning id", [classmatesSuggestion]),
      state: (q) => q.query("select status from note_suggestions where id = $1", [classmatesSuggestion]),
    }),
    delete: () => ({
      act: (tx) => tx.query("delete from note_suggestions where id = $1 returning id", [classmatesSuggestion]),
      state: (q) => q.query("select id from note_suggestions where id = $1", [classmatesSuggestion]),
    }),
  },

  note_history: {
    select: (c) => ({
      act: (tx) => tx.query("select note_id from note_history where note_id = $1", [deckOf(c).noteId]),
      rows: (rows) => expect(rows).toContainEqual({ note_id: deckOf(c).noteId }),
    }),
    insert: (c) => ({
      act: (tx) =>
        tx.query(
          `insert into note_history (note_id, deck_id, version, action, kind, fields)
           values ($1, $2, 999, 'edit', 'basic', '{}') returning note_id`,
          [deckOf(c).noteId, deckOf(c).id],
        ),
      state: (q) =>
        q.query("select version from note_history where note_id = $1 and version = 999", [deckOf(c).noteId]),
    }),
    update: (c) => ({
      act: (tx) =>
        tx.query("update note_history set tags = '{probe}' where note_id = $1 returning note_id", [deckOf(c).noteId]),
      state: (q) => q.query("select tags from note_history where note_id = $1 order by version", [deckOf(c).noteId]),
    }),
    delete: (c) => ({
      act: (tx) => tx.query("delete from note_history where note_id = $1 returning note_id", [deckOf(c).noteId]),
      state: (q) => q.query("select version from note_history where note_id = $1", [deckOf(c).noteId]),
    }),
  },

  personal_notes: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select user_id from personal_notes where user_id = $1", [s.userId]),
        rows: (rows) => expect(rows).toEqual([{ user_id: s.userId }]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      const noteId = s.noteId;
      return {
        // The row is made anew: removed first, as far as the caller may remove it.
        act: async (tx) => {
          await tx.query("delete from personal_notes where user_id = $1 and note_id = $2", [s.userId, noteId]);
          return tx.query(
            "insert into personal_notes (user_id, note_id, tags) values ($1, $2, '{probe}') returning note_id",
            [s.userId, noteId],
          );
        },
        state: (q) =>
          q.query("select tags from personal_notes where user_id = $1 and note_id = $2", [s.userId, noteId]),
        effect: (after) => expect(after).toEqual([{ tags: ["probe"] }]),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query("update personal_notes set text = 'Probe' where user_id = $1 returning note_id", [s.userId]),
        state: (q) => q.query("select text from personal_notes where user_id = $1", [s.userId]),
        effect: (after) => expect(after).toEqual([{ text: "Probe" }]),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from personal_notes where user_id = $1 returning note_id", [s.userId]),
        state: (q) => q.query("select note_id from personal_notes where user_id = $1", [s.userId]),
        effect: (after) => expect(after).toEqual([]),
      };
    },
  },

  profiles: {
    select: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("select id, display_name, timezone from profiles where id = $1", [s.userId]),
        rows: (rows) => expect(ids(rows)).toEqual([s.userId]),
      };
    },
    insert: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            "insert into profiles (id, display_name) values ($1, 'Impostor') on conflict do nothing returning id",
            [s.userId],
          ),
        state: (q) => profileOf(q, s.userId),
      };
    },
    update: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) =>
          tx.query(
            "update profiles set display_name = 'New name', desired_retention = 0.8 where id = $1 returning id",
            [s.userId],
          ),
        state: (q) => profileOf(q, s.userId),
        effect: (after) => expect(after).toEqual([{ display_name: "New name", desired_retention: 0.8 }]),
      };
    },
    delete: (c) => {
      const s = subjectOf(c);
      return {
        act: (tx) => tx.query("delete from profiles where id = $1 returning id", [s.userId]),
        state: (q) => profileOf(q, s.userId),
      };
    },
  },
};

/** Gives every user a personal note on the note of the deck they study. */
async function addSuggestion(db: Database, w: World): Promise<string> {
  const [made] = await actAs(db, w.classmate, (tx) =>
    tx.query<{ id: string }>(
      `select id from suggest_note_change(p_action => 'edit', p_note_id => $1,
         p_fields => '{"front": "Benzene formula", "back": "C6H6 (a ring)"}', p_rationale => 'Say it is a ring')`,
      [w.privateDeck.noteId],
    ),
  );
  return must(made).id;
}

async function addPersonalNotes(db: Database, w: World): Promise<void> {
  const studied = [
    [w.owner, w.privateDeck],
    [w.editor, w.privateDeck],
    [w.viewer, w.privateDeck],
    [w.classmate, w.privateDeck],
    [w.stranger, w.strangersClone],
  ] as const;
  for (const [user, deck] of studied) {
    await db.query("insert into personal_notes (user_id, note_id, tags, text) values ($1, $2, '{mine}', 'My note')", [
      user.id,
      deck.noteId,
    ]);
  }
}

function userIdOf(c: Context): string {
  const actor = actorOf(c.w, c.actor);
  if (actor.kind !== "user") throw new Error(`${c.actor} is not signed in`);
  return actor.id;
}

function memberRole(q: Queryable, deckId: string, userId: string) {
  return q.query("select role from deck_members where deck_id = $1 and user_id = $2", [deckId, userId]);
}

function scheduleOf(q: Queryable, userId: string) {
  return q.query("select card_id, state, due, suspended from card_states where user_id = $1 order by card_id", [
    userId,
  ]);
}

function extrasOf(q: Queryable, userId: string) {
  return q.query("select deck_id, study_date, extra_new from study_day_extras where user_id = $1 order by deck_id", [
    userId,
  ]);
}

/** Five more new cards on each user's study day today, in the deck they study, written as the table owner. */
async function addStudyDayExtras(db: Database, w: World) {
  for (const user of [w.owner, w.editor, w.viewer, w.classmate, w.stranger]) {
    const deck = user.id === w.stranger.id ? w.strangersClone : w.privateDeck;
    await db.query(
      `insert into study_day_extras (user_id, deck_id, study_date, extra_new)
       select p.id, $2, private.study_date(now(), p.timezone, p.day_starts_at), 5 from profiles p where p.id = $1`,
      [user.id, deck.id],
    );
  }
}

function profileOf(q: Queryable, userId: string) {
  return q.query("select display_name, desired_retention from profiles where id = $1", [userId]);
}

const tables = [...new Set(matrix.map((cell) => cell.table))];

describe.each(tables)("%s", (table) => {
  test.each(matrix.filter((cell) => cell.table === table))("$name", async (cell) => {
    const context = { w: world, actor: cell.actor, target: cell.target };
    await expectOutcome(db, actorOf(world, cell.actor), probes[cell.table][cell.operation](context), cell.expected);
  });
});

describe("the matrix", () => {
  test("covers every table in public with all four operations for all five actors", async () => {
    const [row] = await db.query<{ tables: string[] }>(
      "select array_agg(tablename::text order by tablename) as tables from pg_tables where schemaname = 'public'",
    );
    expect([...tables].sort()).toEqual(must(row).tables);
    for (const table of tables) {
      for (const operation of ["select", "insert", "update", "delete"] as const) {
        const covered = new Set(
          matrix.filter((c) => c.table === table && c.operation === operation).map((c) => c.actor),
        );
        expect([...covered].sort(), `${table} ${operation}`).toEqual([...actors].sort());
      }
    }
  });
});

describe("private rows stay private, even from the owner of a shared deck", () => {
  // Unfiltered reads: RLS alone must narrow them to the caller's rows, although
  // the editor, the viewer and Cleo all study the owner's deck.
  test.each([
    ["card_states", "select distinct user_id from card_states"],
    ["review_logs", "select distinct user_id from review_logs"],
    ["import_jobs", "select distinct user_id from import_jobs"],
    ["profiles", "select id as user_id from profiles"],
    ["personal_notes", "select distinct user_id from personal_notes"],
    ["study_day_extras", "select distinct user_id from study_day_extras"],
  ])("the owner reading all %s gets only their own", async (_table, sql) => {
    const rows = await actAs(db, world.owner, (tx) => tx.query(sql));
    expect(rows).toEqual([{ user_id: world.owner.id }]);
  });

  test("the owner reading card_states of their own deck sees only their own schedule", async () => {
    const rows = await actAs(db, world.owner, (tx) =>
      tx.query("select user_id from card_states where deck_id = $1", [world.privateDeck.id]),
    );
    expect(rows).toEqual([{ user_id: world.owner.id }]);
  });

  test("co-members' display names reach members through deck_member_profiles, not the profiles table", async () => {
    const rows = await actAs(db, world.viewer, (tx) =>
      tx.query<{ display_name: string }>("select display_name from deck_member_profiles($1)", [world.privateDeck.id]),
    );
    expect(rows.map((r) => r.display_name).sort()).toEqual([
      "Cleo Classmate",
      "Eddie Editor",
      "Olivia Owner",
      "Vera Viewer",
    ]);
  });
});

describe("protected columns cannot be changed, even by the owner", () => {
  // Column privileges, not just policies, guard these: the owner passes every
  // policy on their deck, so only a missing grant can stop them.
  test.each([
    [
      "decks.owner_id",
      () => world.owner,
      "update decks set owner_id = $2 where id = $1",
      () => [world.privateDeck.id, world.editor.id],
    ],
    [
      "notes.created_by",
      () => world.owner,
      "update notes set created_by = $2 where id = $1",
      () => [world.privateDeck.noteId, world.editor.id],
    ],
    [
      "notes.deck_id",
      () => world.owner,
      "update notes set deck_id = $2 where id = $1",
      () => [world.privateDeck.noteId, world.publicDeck.id],
    ],
    [
      "profiles.id",
      () => world.owner,
      "update profiles set id = $2 where id = $1",
      () => [world.owner.id, world.newcomer.id],
    ],
    [
      "deck_members.user_id",
      () => world.owner,
      "update deck_members set user_id = $2 where deck_id = $1 and user_id = $3",
      () => [world.privateDeck.id, world.newcomer.id, world.classmate.id],
    ],
    [
      "deck_members.deck_id",
      () => world.owner,
      "update deck_members set deck_id = $2 where deck_id = $1 and user_id = $3",
      () => [world.privateDeck.id, world.publicDeck.id, world.classmate.id],
    ],
    [
      "deck_invites.role",
      () => world.owner,
      "update deck_invites set role = 'editor' where id = $1",
      () => [world.privateDeck.inviteId],
    ],
    [
      "deck_invites.uses",
      () => world.owner,
      "update deck_invites set uses = 0, max_uses = null where id = $1",
      () => [world.privateDeck.inviteId],
    ],
    [
      "notes.created_by (by an editor)",
      () => world.editor,
      "update notes set created_by = $2 where id = $1",
      () => [world.privateDeck.noteId, world.editor.id],
    ],
  ] as const)("%s is refused", async (_column, who, sql, params) => {
    await expectOutcome(db, who(), { act: (tx) => tx.query(sql, [...params()]) }, "permission denied");
  });

  test("moving a note between decks goes through move_notes, which the owner may call", async () => {
    const result = await probeAs(db, world.owner, (tx) =>
      tx.query("select move_notes($1, $2) as moved", [[world.privateDeck.noteId], world.publicDeck.id]),
    );
    expect(result).toEqual({ ok: true, value: [{ moved: 1 }] });
  });
});

describe("membership rules beyond the matrix", () => {
  const addMember = (deckId: () => string, userId: () => string, role: string): Probe => ({
    act: (tx) =>
      tx.query("insert into deck_members (deck_id, user_id, role) values ($1, $2, $3) returning user_id", [
        deckId(),
        userId(),
        role,
      ]),
    state: (q) => memberRole(q, deckId(), userId()),
  });
  const setRole = (userId: () => string, role: string): Probe => ({
    act: (tx) =>
      tx.query("update deck_members set role = $3 where deck_id = $1 and user_id = $2 returning user_id", [
        world.privateDeck.id,
        userId(),
        role,
      ]),
    state: (q) => memberRole(q, world.privateDeck.id, userId()),
  });

  test("a non-member cannot add themselves to a private deck", async () => {
    await expectOutcome(
      db,
      world.stranger,
      addMember(
        () => world.privateDeck.id,
        () => world.stranger.id,
        "viewer",
      ),
      PERM,
    );
  });

  test("a non-member cannot join a public deck without cloning it", async () => {
    await expectOutcome(
      db,
      world.stranger,
      addMember(
        () => world.publicDeck.id,
        () => world.stranger.id,
        "viewer",
      ),
      PERM,
    );
  });

  test("the owner cannot add a second owner", async () => {
    await expectOutcome(
      db,
      world.owner,
      addMember(
        () => world.privateDeck.id,
        () => world.newcomer.id,
        "owner",
      ),
      PERM,
    );
  });

  test("the owner cannot pull a user into a deck without their consent", async () => {
    await expectOutcome(
      db,
      world.owner,
      addMember(
        () => world.privateDeck.id,
        () => world.newcomer.id,
        "viewer",
      ),
      PERM,
    );
  });

  test("the owner cannot make a member owner by changing their role", async () => {
    await expectOutcome(
      db,
      world.owner,
      setRole(() => world.editor.id, "owner"),
      RLS,
    );
  });

  test("the owner cannot demote themselves, leaving the deck without an owner", async () => {
    await expectOutcome(
      db,
      world.owner,
      setRole(() => world.owner.id, "viewer"),
      NOOP,
    );
  });

  test("a viewer cannot promote themselves to editor", async () => {
    await expectOutcome(
      db,
      world.viewer,
      setRole(() => world.viewer.id, "editor"),
      NOOP,
    );
  });

  test("an editor cannot promote themselves to owner", async () => {
    await expectOutcome(
      db,
      world.editor,
      setRole(() => world.editor.id, "owner"),
      NOOP,
    );
  });

  test("an editor cannot remove the owner", async () => {
    await expectOutcome(
      db,
      world.editor,
      {
        act: (tx) =>
          tx.query("delete from deck_members where deck_id = $1 and user_id = $2 returning user_id", [
            world.privateDeck.id,
            world.owner.id,
          ]),
        state: (q) => memberRole(q, world.privateDeck.id, world.owner.id),
      },
      NOOP,
    );
  });
});

describe("rows written on someone else's behalf", () => {
  test("nobody can create a deck owned by someone else", async () => {
    await expectOutcome(
      db,
      world.stranger,
      {
        act: (tx) =>
          tx.query("insert into decks (name, owner_id) values ('Planted deck', $1) returning id", [world.owner.id]),
        state: (q) => q.query("select id from decks where name = 'Planted deck'"),
      },
      RLS,
    );
  });

  test("an editor cannot add a note credited to another member", async () => {
    await expectOutcome(
      db,
      world.editor,
      {
        act: (tx) =>
          tx.query(
            `insert into notes (deck_id, kind, fields, created_by) values ($1, 'basic', '{"front": "f", "back": "b"}', $2)
             returning id`,
            [world.privateDeck.id, world.owner.id],
          ),
        state: (q) => q.query("select id from notes where deck_id = $1 order by id", [world.privateDeck.id]),
      },
      RLS,
    );
  });
});

describe("invites are created through create_invite", () => {
  const createInvite = (tx: Queryable) =>
    tx.query<{ deck_id: string; role: string }>("select deck_id, role from create_invite($1, 'editor')", [
      world.privateDeck.id,
    ]);

  test("the owner can create an invite", async () => {
    const result = await probeAs(db, world.owner, createInvite);
    expect(result).toEqual({ ok: true, value: [{ deck_id: world.privateDeck.id, role: "editor" }] });
  });

  test.each([
    ["an editor", () => world.editor, "42501"],
    ["a viewer", () => world.viewer, "42501"],
    // A non-member cannot even learn the private deck exists.
    ["a non-member", () => world.stranger, "PT404"],
  ] as const)("%s cannot create an invite", async (_who, who, code) => {
    const result = await probeAs(db, who(), createInvite);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe(code);
  });

  test("anon cannot call create_invite at all", async () => {
    const result = await probeAs(db, anon, createInvite);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe("42501");
    expect(!result.ok && result.error.message).toMatch(/^permission denied for function create_invite/);
  });
});

describe("personal notes are saved through save_personal_note", () => {
  const saveOn = (noteId: string) => (tx: Queryable) =>
    tx.query<{ tags: string[] }>("select tags from save_personal_note($1, '{probe}', 'Probe')", [noteId]);

  test.each([
    ["the owner", () => world.owner, () => world.privateDeck.noteId],
    ["an editor", () => world.editor, () => world.privateDeck.noteId],
    ["a viewer", () => world.viewer, () => world.privateDeck.noteId],
    ["a non-member, on a public deck's note", () => world.stranger, () => world.publicDeck.noteId],
  ] as const)("%s can save their own", async (_who, who, note) => {
    const result = await probeAs(db, who(), saveOn(note()));
    expect(result).toEqual({ ok: true, value: [{ tags: ["probe"] }] });
  });

  test("a non-member cannot save one on a private deck's note, which they cannot see", async () => {
    const result = await probeAs(db, world.stranger, saveOn(world.privateDeck.noteId));
    expect(!result.ok && result.error.code).toBe("PT404");
  });

  test("anon cannot call save_personal_note at all", async () => {
    const result = await probeAs(db, anon, saveOn(world.publicDeck.noteId));
    expect(!result.ok && result.error.message).toMatch(/^permission denied for function save_personal_note/);
  });
});

describe("study actions change only the caller's own schedules, through bury_cards and set_flag", () => {
  const buryIt = (tx: Queryable) =>
    tx.query<{ buried: boolean }>("select buried_until is not null as buried from bury_cards($1, true)", [
      [world.privateDeck.cardId],
    ]);
  const flagIt = (tx: Queryable) =>
    tx.query<{ changed: number }>("select set_flag($1, 4::smallint) as changed", [[world.privateDeck.cardId]]);
  const classmatesState = (tx: Queryable) =>
    tx.query<{ buried_until: Date | null; flag: number }>(
      "select buried_until, flag from card_states where user_id = $1 and card_id = $2",
      [world.classmate.id, world.privateDeck.cardId],
    );

  test.each([
    ["a viewer", () => world.viewer],
    ["an editor", () => world.editor],
    ["the owner", () => world.owner],
  ] as const)("%s buries and flags their own schedule of a card, and no one else's", async (_who, who) => {
    const result = await probeAs(db, who(), async (tx) => ({
      buried: await buryIt(tx),
      flagged: await flagIt(tx),
      // read back as the table owner, in the same rolled-back transaction
      classmate: await tx.query("reset role").then(() => classmatesState(tx)),
    }));
    expect(result).toEqual({
      ok: true,
      value: { buried: [{ buried: true }], flagged: [{ changed: 1 }], classmate: [{ buried_until: null, flag: 0 }] },
    });
  });

  test("a non-member cannot bury or flag a card of a deck they do not study", async () => {
    const buried = await probeAs(db, world.stranger, buryIt);
    expect(!buried.ok && buried.error.code).toBe("PT404");
    const flagged = await probeAs(db, world.stranger, flagIt);
    expect(!flagged.ok && flagged.error.code).toBe("PT404");
  });

  test("anon cannot call bury_cards or set_flag at all", async () => {
    const buried = await probeAs(db, anon, buryIt);
    expect(!buried.ok && buried.error.message).toMatch(/^permission denied for function bury_cards/);
    const flagged = await probeAs(db, anon, flagIt);
    expect(!flagged.ok && flagged.error.message).toMatch(/^permission denied for function set_flag/);
  });
});

describe("custom study reads and extends only the caller's own study, through custom_study_cards and extend_study_day", () => {
  const forgotten = (tx: Queryable) =>
    tx.query<{ card_id: string }>("select card_id from custom_study_cards($1, 'search', null, $2)", [
      world.privateDeck.id,
      JSON.stringify({ op: "text", like: "%" }),
    ]);
  const extend = (tx: Queryable) =>
    tx.query<{ total: number }>("select extend_study_day($1, 3) as total", [world.privateDeck.id]);

  test.each([
    ["a viewer", () => world.viewer],
    ["an editor", () => world.editor],
    ["the owner", () => world.owner],
  ] as const)("%s finds their own schedules of the deck's cards and adds to their own day", async (_who, who) => {
    const result = await probeAs(db, who(), async (tx) => ({ cards: await forgotten(tx), extended: await extend(tx) }));
    expect(result).toEqual({
      ok: true,
      value: { cards: [{ card_id: world.privateDeck.cardId }], extended: [{ total: 8 }] },
    });
  });

  test("a non-member finds nothing in a private deck and cannot extend its day", async () => {
    const found = await probeAs(db, world.stranger, forgotten);
    expect(!found.ok && found.error.code).toBe("PT404");
    const extended = await probeAs(db, world.stranger, extend);
    expect(!extended.ok && extended.error.code).toBe("PT404");
  });

  test("anon cannot call custom_study_cards or extend_study_day at all", async () => {
    const found = await probeAs(db, anon, forgotten);
    expect(!found.ok && found.error.message).toMatch(/^permission denied for function custom_study_cards/);
    const extended = await probeAs(db, anon, extend);
    expect(!extended.ok && extended.error.message).toMatch(/^permission denied for function extend_study_day/);
  });
});

describe("suggestions are made and reviewed through their functions", () => {
  const suggestCreate = (deckId: () => string) => (tx: Queryable) =>
    tx.query(
      `select id from suggest_note_change(p_action => 'create', p_deck_id => $1, p_kind => 'basic',
         p_fields => '{"front": "Probe", "back": "Probe"}')`,
      [deckId()],
    );
  const reviewIt = (decision: string) => (tx: Queryable) =>
    tx.query("select id from review_suggestions($1, $2)", [[classmatesSuggestion], decision]);
  const queue = (tx: Queryable) => tx.query("select id from pending_suggestions($1)", [world.privateDeck.id]);
  const withdraw = (tx: Queryable) => tx.query("select id from withdraw_suggestion($1)", [classmatesSuggestion]);

  test.each([
    ["a viewer", () => world.viewer],
    ["an editor", () => world.editor],
    ["the owner", () => world.owner],
  ] as const)("%s can suggest a note to a deck that takes suggestions from members", async (_who, who) => {
    const result = await probeAs(
      db,
      who(),
      suggestCreate(() => world.privateDeck.id),
    );
    expect(result.ok).toBe(true);
  });

  test("a non-member cannot suggest to a private deck, nor to a public one that takes suggestions from members only", async () => {
    const hidden = await probeAs(
      db,
      world.stranger,
      suggestCreate(() => world.privateDeck.id),
    );
    expect(!hidden.ok && hidden.error.code).toBe("PT404");
    const members = await probeAs(
      db,
      world.stranger,
      suggestCreate(() => world.publicDeck.id),
    );
    expect(!members.ok && members.error.code).toBe("42501");
  });

  test.each([
    ["the owner", () => world.owner],
    ["an editor", () => world.editor],
  ] as const)("%s can read the review queue and accept or reject", async (_who, who) => {
    for (const call of [queue, reviewIt("accept"), reviewIt("reject")]) {
      const result = await probeAs(db, who(), call);
      expect(result.ok).toBe(true);
    }
  });

  test.each([
    ["the author, a viewer", () => world.classmate, "42501"],
    ["another viewer", () => world.viewer, "PT404"],
    ["a non-member", () => world.stranger, "PT404"],
  ] as const)("%s can neither review nor read the queue", async (_who, who, code) => {
    const reviewed = await probeAs(db, who(), reviewIt("accept"));
    expect(!reviewed.ok && reviewed.error.code).toBe(code);
    const read = await probeAs(db, who(), queue);
    expect(!read.ok && read.error.code).toBe(who() === world.stranger ? "PT404" : "42501");
  });

  test("only the author withdraws a suggestion", async () => {
    expect((await probeAs(db, world.classmate, withdraw)).ok).toBe(true);
    for (const other of [world.owner, world.viewer]) {
      const result = await probeAs(db, other, withdraw);
      expect(!result.ok && result.error.code).toBe("PT404");
    }
  });

  test("anon cannot call the suggestion functions at all", async () => {
    for (const call of [suggestCreate(() => world.publicDeck.id), reviewIt("accept"), queue, withdraw]) {
      const result = await probeAs(db, anon, call);
      expect(!result.ok && result.error.message).toMatch(/^permission denied for function/);
    }
  });
});

describe("a note's history is read and reverted through its functions", () => {
  /** An edit by the caller, then back to version 1 from the version the edit made. */
  const editThenRevert = (tx: Queryable) =>
    tx
      .query<{ version: number }>(
        `update notes set fields = '{"front": "Probe front", "back": "Probe back"}'
         where id = $1 returning version`,
        [world.privateDeck.noteId],
      )
      .then(([edited]) =>
        tx.query<{ version: number }>("select version from revert_note($1, 1, $2)", [
          world.privateDeck.noteId,
          must(edited).version,
        ]),
      );
  const revertFirst = (tx: Queryable) =>
    tx.query("select version from revert_note($1, 1, 1)", [world.privateDeck.noteId]);
  const changes = (deckId: () => string) => (tx: Queryable) =>
    tx.query<{ changes: { edited: number } }>("select deck_changes($1, now() - interval '1 day') as changes", [
      deckId(),
    ]);
  const history = (noteId: () => string) => (tx: Queryable) =>
    tx.query("select version from note_history_of($1)", [noteId()]);

  test.each([
    ["the owner", () => world.owner],
    ["an editor", () => world.editor],
  ] as const)("%s can revert a note to an earlier version", async (_who, who) => {
    const result = await probeAs(db, who(), editThenRevert);
    expect(result.ok).toBe(true);
  });

  test.each([
    ["a viewer", () => world.viewer, "42501"],
    // A non-member cannot even learn the private deck's note exists.
    ["a non-member", () => world.stranger, "PT404"],
  ] as const)("%s cannot revert a note", async (_who, who, code) => {
    const result = await probeAs(db, who(), revertFirst);
    expect(!result.ok && result.error.code).toBe(code);
  });

  test("anon cannot call revert_note or deck_changes at all", async () => {
    for (const call of [revertFirst, changes(() => world.publicDeck.id)]) {
      const result = await probeAs(db, anon, call);
      expect(!result.ok && result.error.message).toMatch(/^permission denied for function (revert_note|deck_changes)/);
    }
  });

  test.each([
    ["the owner", () => world.owner, () => world.privateDeck.id],
    ["a viewer", () => world.viewer, () => world.privateDeck.id],
    ["a non-member, on a public deck", () => world.stranger, () => world.publicDeck.id],
  ] as const)("%s reads what changed in a deck it reads", async (_who, who, deck) => {
    const result = await probeAs(db, who(), changes(deck));
    expect(result.ok).toBe(true);
  });

  test("a non-member cannot read what changed in a private deck, nor its notes' history", async () => {
    const result = await probeAs(
      db,
      world.stranger,
      changes(() => world.privateDeck.id),
    );
    expect(!result.ok && result.error.code).toBe("PT404");
    expect(
      await probeAs(
        db,
        world.stranger,
        history(() => world.privateDeck.noteId),
      ),
    ).toEqual({ ok: true, value: [] });
    expect(
      await probeAs(
        db,
        anon,
        history(() => world.privateDeck.noteId),
      ),
    ).toEqual({ ok: true, value: [] });
  });
});

describe("deleted notes are listed and restored through their functions", () => {
  // A note of each deck, deleted by its owner; every probe rolls back, so each finds it still deleted.
  const deleted = { private: "", public: "" };
  beforeAll(async () => {
    for (const [which, deckId] of [
      ["private", world.privateDeck.id],
      ["public", world.publicDeck.id],
    ] as const) {
      deleted[which] = await actAs(db, world.owner, async (tx) => {
        const [note] = await tx.query<{ id: string }>(
          `insert into notes (deck_id, kind, fields) values ($1, 'basic', '{"front": "Deleted", "back": "B"}') returning id`,
          [deckId],
        );
        await tx.query("delete from notes where id = $1", [must(note).id]);
        return must(note).id;
      });
    }
  });
  const list = (deckId: () => string) => (tx: Queryable) =>
    tx.query<{ note_id: string }>("select note_id from deleted_notes($1)", [deckId()]);
  const restore = (noteId: () => string) => (tx: Queryable) =>
    tx.query<{ restored: number }>("select restore_notes($1) as restored", [[noteId()]]);

  test.each([
    ["the owner", () => world.owner],
    ["an editor", () => world.editor],
  ] as const)("%s can restore a deleted note", async (_who, who) => {
    expect(
      await probeAs(
        db,
        who(),
        restore(() => deleted.private),
      ),
    ).toEqual({ ok: true, value: [{ restored: 1 }] });
  });

  test.each([
    ["a viewer", () => world.viewer, () => deleted.private, "42501"],
    // A non-member cannot even learn the private deck's note existed.
    ["a non-member", () => world.stranger, () => deleted.private, "PT404"],
    ["a non-member, on a public deck", () => world.stranger, () => deleted.public, "42501"],
  ] as const)("%s cannot restore a deleted note", async (_who, who, noteId, code) => {
    const result = await probeAs(db, who(), restore(noteId));
    expect(!result.ok && result.error.code).toBe(code);
  });

  test.each([
    ["the owner", () => world.owner],
    ["an editor", () => world.editor],
    ["a viewer", () => world.viewer],
  ] as const)("%s lists a deck's deleted notes", async (_who, who) => {
    const result = await probeAs(
      db,
      who(),
      list(() => world.privateDeck.id),
    );
    expect(result).toEqual({ ok: true, value: [{ note_id: deleted.private }] });
  });

  test.each([
    ["a non-member", () => world.privateDeck.id, "PT404"],
    // Who deleted what is for the deck's members, not for every reader of a public deck.
    ["a non-member, on a public deck", () => world.publicDeck.id, "42501"],
  ] as const)("%s cannot list a deck's deleted notes", async (_who, deckId, code) => {
    const result = await probeAs(db, world.stranger, list(deckId));
    expect(!result.ok && result.error.code).toBe(code);
  });

  test("anon cannot call deleted_notes or restore_notes at all", async () => {
    const calls: ((tx: Queryable) => Promise<unknown>)[] = [
      list(() => world.publicDeck.id),
      restore(() => deleted.public),
    ];
    for (const call of calls) {
      const result = await probeAs(db, anon, call);
      expect(!result.ok && result.error.message).toMatch(
        /^permission denied for function (deleted_notes|restore_notes)/,
      );
    }
  });

  test("no API role reads the archive itself", async () => {
    for (const actor of [anon, world.owner, service]) {
      const result = await probeAs(db, actor, (tx) => tx.query("select note_id from private.deleted_notes"));
      expect(!result.ok && result.error.code).toBe("42501");
    }
  });
});

describe("service_role bypasses RLS", () => {
  // Edge functions (import, export, optimiser, delete-account) act as the
  // service role and need every row, whoever it belongs to.
  // Limited to this file's people: the seed adds a demo account of its own.
  test.each([
    ["card_states", "select distinct user_id from card_states where user_id = any ($1)"],
    ["review_logs", "select distinct user_id from review_logs where user_id = any ($1)"],
    ["import_jobs", "select distinct user_id from import_jobs where user_id = any ($1)"],
    ["profiles", "select id as user_id from profiles where id = any ($1)"],
  ] as const)("service_role reads every user's %s", async (table, sql) => {
    const people = [world.owner, world.editor, world.viewer, world.classmate, world.stranger, world.newcomer];
    const result = await probeAs(db, service, (tx) => tx.query<{ user_id: string }>(sql, [people.map((p) => p.id)]));
    if (!result.ok) throw result.error;
    // Everyone has a profile; everyone but the newcomer has studied and imported.
    const expected = table === "profiles" ? people : people.filter((p) => p !== world.newcomer);
    expect(result.value.map((r) => r.user_id).sort()).toEqual(expected.map((p) => p.id).sort());
  });

  test("service_role reads invites of a deck it does not own", async () => {
    const result = await probeAs(db, service, (tx) =>
      tx.query("select id from deck_invites where id = $1", [world.privateDeck.inviteId]),
    );
    expect(result).toEqual({ ok: true, value: [{ id: world.privateDeck.inviteId }] });
  });

  test("service_role reads a private deck's notes without being a member", async () => {
    const result = await probeAs(db, service, (tx) =>
      tx.query("select id from notes where deck_id = $1", [world.privateDeck.id]),
    );
    expect(result).toEqual({ ok: true, value: [{ id: world.privateDeck.noteId }] });
  });

  test("service_role writes schedules and import progress directly", async () => {
    const result = await probeAs(db, service, async (tx) => {
      const states = await tx.query("update card_states set suspended = true where user_id = $1 returning card_id", [
        world.classmate.id,
      ]);
      const jobs = await tx.query("update import_jobs set processed = 1, total = 1 where id = $1 returning id", [
        world.importJobIds.get(world.classmate.id),
      ]);
      return { states: states.length, jobs: jobs.length };
    });
    expect(result).toEqual({ ok: true, value: { states: 1, jobs: 1 } });
  });

  test("service_role can change what users may not, such as a deck's owner_id", async () => {
    const result = await probeAs(db, service, (tx) =>
      tx.query("update decks set owner_id = $2 where id = $1 returning owner_id", [
        world.privateDeck.id,
        world.editor.id,
      ]),
    );
    expect(result).toEqual({ ok: true, value: [{ owner_id: world.editor.id }] });
  });
});

describe("search_notes finds only the notes the caller reads, with their own schedules", () => {
  const search = (deckId: () => string, query: object) => (tx: Queryable) =>
    tx.query<{ id: string }>("select id from search_notes($1, $2)", [deckId(), JSON.stringify(query)]);
  const benzene = { op: "text", like: "%benzene%" };

  test.each([
    ["the owner", () => world.owner, 1],
    ["an editor", () => world.editor, 1],
    ["a viewer", () => world.viewer, 1],
    ["a non-member", () => world.stranger, 0],
    ["anon", () => anon, 0],
  ] as const)("%s searching the private deck finds %i notes", async (_who, who, expected) => {
    const result = await probeAs(
      db,
      who(),
      search(() => world.privateDeck.id, benzene),
    );
    expect(result.ok && result.value.length).toBe(expected);
  });

  test("anon searches a public deck's notes, and no schedule matches for it", async () => {
    const publicDeck = () => world.publicDeck.id;
    expect(await probeAs(db, anon, search(publicDeck, { op: "text", like: "%france%" }))).toEqual({
      ok: true,
      value: [{ id: world.publicDeck.noteId }],
    });
    for (const query of [
      { op: "is", state: "new" },
      { op: "rated", days: 30 },
      { op: "introduced", days: 30 },
      { op: "prop", prop: "reps", cmp: ">=", value: 0 },
    ]) {
      expect(await probeAs(db, anon, search(publicDeck, query))).toEqual({ ok: true, value: [] });
    }
    expect(await probeAs(db, anon, search(publicDeck, { op: "tag", like: "none" }))).toMatchObject({ ok: true });
  });
});

describe("browse_notes lists only the notes the caller reads, with their own schedules", () => {
  type Page = { rows: { id: string; reviews: number | null }[]; total: number };
  const browse = (deckId: () => string, mode: "notes" | "cards") => (tx: Queryable) =>
    tx.query<{ page: Page }>("select browse_notes($1, null, $2, 'due', false) as page", [deckId(), mode]);

  test.each([
    ["the owner", () => world.owner, 1],
    ["an editor", () => world.editor, 1],
    ["a viewer", () => world.viewer, 1],
    ["a non-member", () => world.stranger, 0],
    ["anon", () => anon, 0],
  ] as const)("%s browsing the private deck lists %i notes", async (_who, who, expected) => {
    for (const mode of ["notes", "cards"] as const) {
      const result = await probeAs(
        db,
        who(),
        browse(() => world.privateDeck.id, mode),
      );
      expect(result.ok && result.value[0]?.page.rows.length).toBe(expected);
    }
  });

  test("anon browses a public deck's notes without any schedule", async () => {
    const result = await probeAs(
      db,
      anon,
      browse(() => world.publicDeck.id, "cards"),
    );
    expect(result.ok && result.value[0]?.page.rows.map((row) => [row.id, row.reviews])).toEqual([
      [world.publicDeck.noteId, null],
    ]);
  });
});

describe("find and replace goes through replace_in_notes, for the deck's owner and editors", () => {
  // Each note's new fields, stated at its current version (read first: every probe rolls back).
  const notes = new Map<string, { version: number; fields: Record<string, string> }>();
  beforeAll(async () => {
    for (const noteId of [world.privateDeck.noteId, world.publicDeck.noteId]) {
      const [note] = await db.query<{ version: number; fields: Record<string, string> }>(
        "select version, fields from notes where id = $1",
        [noteId],
      );
      notes.set(noteId, must(note));
    }
  });
  const replace = (noteId: () => string) => (tx: Queryable) => {
    const note = must(notes.get(noteId()));
    const change = { id: noteId(), version: note.version, fields: { ...note.fields, back: "Replaced" } };
    return tx.query<{ id: string }>("select id from replace_in_notes($1::jsonb)", [JSON.stringify([change])]);
  };

  test.each([
    ["the owner", () => world.owner],
    ["an editor", () => world.editor],
  ] as const)("%s can replace in a deck's notes", async (_who, who) => {
    const result = await probeAs(
      db,
      who(),
      replace(() => world.privateDeck.noteId),
    );
    expect(result).toEqual({ ok: true, value: [{ id: world.privateDeck.noteId }] });
  });

  test.each([
    ["a viewer", () => world.viewer, () => world.privateDeck.noteId, "42501"],
    // A non-member cannot even learn the private deck's note exists.
    ["a non-member", () => world.stranger, () => world.privateDeck.noteId, "PT404"],
    ["a non-member, on a public deck", () => world.stranger, () => world.publicDeck.noteId, "42501"],
  ] as const)("%s cannot replace in a deck's notes", async (_who, who, noteId, code) => {
    const result = await probeAs(db, who(), replace(noteId));
    expect(!result.ok && result.error.code).toBe(code);
  });

  test("anon cannot call replace_in_notes at all", async () => {
    const result = await probeAs(
      db,
      anon,
      replace(() => world.publicDeck.noteId),
    );
    expect(!result.ok && result.error.message).toMatch(/^permission denied for function replace_in_notes/);
  });
});
