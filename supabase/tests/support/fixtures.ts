import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { expect } from "vitest";
import { type Actor, actAs, createUser, probeAs, service } from "./database.js";
import { addMember } from "./study-fixtures.js";

export type User = Actor & { kind: "user" };

/**
 * The people and data the permission tests probe, created once per test file:
 *
 * - Olivia owns a private deck ("Organic chemistry") with Eddie as editor and
 *   Vera and Cleo as viewers, and a public deck ("World capitals") with no
 *   other members. Each deck has one basic note (so one card).
 * - Cleo is the bystander whose private rows (profile, schedule, review log,
 *   import job, avatar, imports, exports) everyone else tries to reach; she
 *   shares the private deck with Olivia, Eddie and Vera.
 * - Sam belongs to no deck of Olivia's; he has cloned the public deck, which
 *   is how a non-member studies it (docs/product.md §6), so he has a schedule of his own.
 * - Nina has an account and nothing else: the person members try to add.
 */
export interface World {
  owner: User;
  editor: User;
  viewer: User;
  classmate: User;
  stranger: User;
  newcomer: User;
  privateDeck: DeckFixture & { inviteId: string; mediaPath: string; noteTypeId: string };
  publicDeck: DeckFixture & { mediaPath: string; noteTypeId: string };
  /** The stranger's clone of the public deck. */
  strangersClone: DeckFixture;
  /** One review log and one import job per person who has studied or imported. */
  reviewLogIds: Map<string, string>;
  importJobIds: Map<string, string>;
  /** One deck preset per person who has studied (each made by its owner). */
  presetIds: Map<string, string>;
  /** Objects in Cleo's folders of the per-user buckets. */
  classmateObjects: { avatars: string; imports: string; exports: string };
}

export interface DeckFixture {
  id: string;
  noteId: string;
  cardId: string;
}

export async function buildWorld(db: Database): Promise<World> {
  const owner = await createUser(db, { displayName: "Olivia Owner" });
  const editor = await createUser(db, { displayName: "Eddie Editor" });
  const viewer = await createUser(db, { displayName: "Vera Viewer" });
  const classmate = await createUser(db, { displayName: "Cleo Classmate" });
  const stranger = await createUser(db, { displayName: "Sam Stranger" });
  const newcomer = await createUser(db, { displayName: "Nina Newcomer" });

  // Everything a user can do is done as that user, through the same policies
  // the tests probe; only what the platform's functions do runs as service_role.
  const { privateDeck, publicDeck } = await actAs(db, owner, async (tx) => {
    const privateDeck = await createDeckWithNote(tx, "Organic chemistry", false, "Benzene formula", "C6H6");
    const publicDeck = await createDeckWithNote(tx, "World capitals", true, "Capital of France", "Paris");
    const [invite] = await tx.query<{ id: string }>("select id from create_invite($1, 'viewer')", [privateDeck.id]);
    return {
      privateDeck: {
        ...privateDeck,
        inviteId: must(invite).id,
        mediaPath: `${privateDeck.id}/benzene.png`,
        noteTypeId: await createNoteType(tx, privateDeck.id),
      },
      publicDeck: {
        ...publicDeck,
        mediaPath: `${publicDeck.id}/eiffel-tower.png`,
        noteTypeId: await createNoteType(tx, publicDeck.id),
      },
    };
  });

  for (const [member, role] of [
    [editor, "editor"],
    [viewer, "viewer"],
    [classmate, "viewer"],
  ] as const) {
    await addMember(db, owner, privateDeck.id, member, role);
  }

  const strangersClone = await actAs(db, stranger, async (tx) => {
    const [clone] = await tx.query<{ id: string }>("select clone_deck($1) as id", [publicDeck.id]);
    const id = must(clone).id;
    const [card] = await tx.query<{ id: string; note_id: string }>("select id, note_id from cards where deck_id = $1", [
      id,
    ]);
    return { id, noteId: must(card).note_id, cardId: must(card).id };
  });

  const reviewLogIds = new Map<string, string>();
  const importJobIds = new Map<string, string>();
  const presetIds = new Map<string, string>();
  for (const user of [owner, editor, viewer, classmate, stranger]) {
    const [preset] = await actAs(db, user, (tx) =>
      tx.query<{ id: string }>("insert into deck_presets (name, new_per_day) values ('Exam', 7) returning id"),
    );
    presetIds.set(user.id, must(preset).id);
  }
  const classmateObjects = {
    avatars: `${classmate.id}/avatar.png`,
    imports: `${classmate.id}/organic-chemistry.apkg`,
    exports: `${classmate.id}/organic-chemistry-export.apkg`,
  };
  await actAs(db, service, async (tx) => {
    // Everyone who studies has answered their card once (the import function
    // writes logs like this when it brings in review history).
    for (const [user, cardId] of [
      [owner, privateDeck.cardId],
      [editor, privateDeck.cardId],
      [viewer, privateDeck.cardId],
      [classmate, privateDeck.cardId],
      [stranger, strangersClone.cardId],
    ] as const) {
      const [log] = await tx.query<{ id: string }>(
        `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
           elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
         values ($1, $2, $3, 3, 'new', now() - interval '1 hour', 2.3, 5.1, 0, 1, now() - interval '1 hour', 4200, '{}')
         returning id`,
        [user.id, cardId, randomUUID()],
      );
      reviewLogIds.set(user.id, must(log).id);
      const [job] = await tx.query<{ id: string }>(
        `insert into import_jobs (user_id, source, status, processed, total, file_path)
         values ($1, 'apkg', 'done', 1, 1, $2) returning id`,
        [user.id, `${user.id}/deck.apkg`],
      );
      importJobIds.set(user.id, must(job).id);
    }
    // Objects as the storage API would have stored them on upload.
    await insertObject(tx, "media", privateDeck.mediaPath, owner.id);
    await insertObject(tx, "media", publicDeck.mediaPath, owner.id);
    await insertObject(tx, "avatars", classmateObjects.avatars, classmate.id);
    await insertObject(tx, "imports", classmateObjects.imports, classmate.id);
    await insertObject(tx, "exports", classmateObjects.exports, null);
  });

  return {
    owner,
    editor,
    viewer,
    classmate,
    stranger,
    newcomer,
    privateDeck,
    publicDeck,
    strangersClone,
    reviewLogIds,
    importJobIds,
    presetIds,
    classmateObjects,
  };
}

async function createDeckWithNote(
  tx: Queryable,
  name: string,
  isPublic: boolean,
  front: string,
  back: string,
): Promise<DeckFixture> {
  const [deck] = await tx.query<{ id: string }>("insert into decks (name, is_public) values ($1, $2) returning id", [
    name,
    isPublic,
  ]);
  const deckId = must(deck).id;
  const [note] = await tx.query<{ id: string }>(
    "insert into notes (deck_id, kind, fields) values ($1, 'basic', $2) returning id",
    [deckId, JSON.stringify({ front, back })],
  );
  const noteId = must(note).id;
  const [card] = await tx.query<{ id: string }>("select id from cards where note_id = $1", [noteId]);
  return { id: deckId, noteId, cardId: must(card).id };
}

/** A note type no note uses yet, so that the members allowed to may delete it. */
async function createNoteType(tx: Queryable, deckId: string): Promise<string> {
  const [type] = await tx.query<{ id: string }>(
    `insert into note_types (deck_id, name, fields, templates)
     values ($1, 'Term', array['Term', 'Definition'], '[{"name": "Card 1", "front": "{{Term}}", "back": "{{Definition}}"}]')
     returning id`,
    [deckId],
  );
  return must(type).id;
}

/** Inserts a storage object row the way the storage API does on upload. */
export function insertObject(tx: Queryable, bucket: string, name: string, ownerId: string | null) {
  return tx.query(
    "insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3, $4, $5)",
    [bucket, name, ownerId, ownerId, JSON.stringify(objectMetadata(name))],
  );
}

function objectMetadata(name: string) {
  const mimetype = name.endsWith(".png") ? "image/png" : "application/octet-stream";
  return { size: 1024, mimetype, cacheControl: "max-age=3600" };
}

export function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("fixture query returned no row");
  return value;
}

/**
 * How a permission check ends. A denial shows up in one of four ways, and
 * each cell names the one it expects:
 * - "sees nothing": a select returns no rows (RLS filters them out);
 * - "changes nothing": an update or delete matches no row it may touch;
 * - "permission denied": the role lacks the table or column privilege (42501);
 * - "row-level security violation": an insert or update writes a row the
 *   policies' WITH CHECK refuses (also 42501, with its own message).
 */
export type Expected =
  | "allowed"
  | "sees nothing"
  | "changes nothing"
  | "permission denied"
  | "row-level security violation";

// Short names for matrix cells.
export const ALLOWED: Expected = "allowed";
export const EMPTY: Expected = "sees nothing";
export const NOOP: Expected = "changes nothing";
export const PERM: Expected = "permission denied";
export const RLS: Expected = "row-level security violation";
/** A cell that does not exist, e.g. anon has no rows of its own. */
export const NA = null;
export type Column = Expected | typeof NA;

/** One operation to try, and how to observe what it did. */
export interface Probe {
  /** Runs the operation as the caller; resolves to the rows it returned (select, or write … returning). */
  act(tx: Queryable): Promise<unknown[]>;
  /**
   * Reads the data the operation targets, as the table owner (RLS bypassed).
   * Writes must define it: a denied write must leave it as it was, an allowed one must change it.
   */
  state?(q: Queryable): Promise<unknown>;
  /** For an allowed select: checks the rows are the target's. */
  rows?(rows: unknown[]): void;
  /** For an allowed write: checks the state afterwards shows the effect. */
  effect?(after: unknown, before: unknown): void;
}

/**
 * Runs `probe` as `actor` in a transaction that is always rolled back, and
 * asserts it ends as `expected`. The state after the operation is re-read in
 * the same transaction as the table owner, so a silent no-op is told apart
 * from a write that happened but is hidden from the caller.
 */
export async function expectOutcome(db: Database, actor: Actor, probe: Probe, expected: Expected): Promise<void> {
  const before = probe.state ? await probe.state(db) : undefined;
  const result = await probeAs(db, actor, async (tx) => {
    const rows = await probe.act(tx);
    await tx.exec("reset role");
    const after = probe.state ? await probe.state(tx) : undefined;
    return { rows, after };
  });

  switch (expected) {
    case "permission denied":
    case "row-level security violation": {
      if (result.ok)
        throw new Error(
          `expected ${expected}, but the operation succeeded and returned ${result.value.rows.length} row(s)`,
        );
      expect(result.error.code).toBe("42501");
      expect(result.error.message).toMatch(
        expected === "permission denied" ? /^permission denied for / : /violates row-level security policy/,
      );
      return;
    }
    case "sees nothing":
    case "changes nothing": {
      if (!result.ok) throw result.error;
      expect(result.value.rows).toEqual([]);
      expect(result.value.after).toEqual(before);
      return;
    }
    case "allowed": {
      if (!result.ok) throw result.error;
      if (probe.effect) {
        expect(result.value.after).not.toEqual(before);
        probe.effect(result.value.after, before);
      } else {
        expect(result.value.rows.length).toBeGreaterThan(0);
        probe.rows?.(result.value.rows);
      }
      return;
    }
  }
}
