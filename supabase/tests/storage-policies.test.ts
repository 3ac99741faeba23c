// Who may read and write which storage objects, as the storage policies in
// the migrations and docs/product.md §6 say. The storage API runs every request as
// the caller against storage.objects, so these rows are the whole permission
// system for uploads and downloads. Paths: media/<deck_id>/<file>,
// avatars/<user_id>/<file>, imports/<user_id>/<file>, exports/<user_id>/<file>.

import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, anon, openTestDatabase, probeAs, service } from "./support/database.js";
import {
  ALLOWED,
  buildWorld,
  type Column,
  EMPTY,
  type Expected,
  expectOutcome,
  insertObject,
  NA,
  NOOP,
  type Probe,
  RLS,
  type User,
  type World,
} from "./support/fixtures.js";

let db: Database;
let world: World;
beforeAll(async () => {
  db = await openTestDatabase();
  world = await buildWorld(db);
});
afterAll(() => db?.close());

type Bucket = "media" | "avatars" | "imports" | "exports";
type Operation = "select" | "insert" | "update" | "delete";
/**
 * The deck actors of the RLS matrix, plus the user whose folder the per-user
 * buckets aim at: Cleo, a viewer of the owner's private deck. So for her
 * folders the viewer, editor and owner are co-members and the non-member is
 * just another user.
 */
type ActorName = "anon" | "non-member" | "viewer" | "editor" | "owner" | "the user";
/** media: the private or the public deck's folder; other buckets: Cleo's folder. */
type Target = "private deck" | "public deck" | "the user's folder";

const actors: readonly ActorName[] = ["anon", "non-member", "viewer", "editor", "owner", "the user"];

// NA cells: Cleo is only one more viewer of the media deck.

interface Cell {
  name: string;
  bucket: Bucket;
  operation: Operation;
  target: Target;
  actor: ActorName;
  expected: Expected;
}

function row(
  bucket: Bucket,
  operation: Operation,
  target: Target,
  ...expected: [Column, Column, Column, Column, Column, Column]
): Cell[] {
  return actors.flatMap((actor, i) => {
    const outcome = expected[i];
    if (!outcome) return [];
    return [
      {
        name: cellName(bucket, operation, target, actor, outcome),
        bucket,
        operation,
        target,
        actor,
        expected: outcome,
      },
    ];
  });
}

function cellName(bucket: Bucket, operation: Operation, target: Target, actor: ActorName, expected: Expected) {
  const perUser = target === "the user's folder";
  const who =
    perUser && ["viewer", "editor", "owner"].includes(actor)
      ? `a co-member (${actor})`
      : perUser && actor === "non-member"
        ? "another user"
        : actor;
  const subject = perUser ? `objects in the user's ${bucket} folder` : `${bucket} of a ${target}`;
  return expected === ALLOWED
    ? `${who} can ${operation} ${subject}`
    : `${who} cannot ${operation} ${subject} (${expected})`;
}

// Columns: anon, non-member / another user, viewer, editor, owner, the user.
// Sources: docs/product.md §6 "see … media: members, or anyone if public", "upload media:
// owner and editor"; "display names and avatars of co-members are visible to
// members of the same deck"; "nobody ever reads another user's … imports or
// exports"; §7: exports are produced by the export-deck function (service
// role), so users only read and delete theirs.
// biome-ignore format: the matrix is laid out as a table, one row per table and operation
const matrix: Cell[] = [
  //     bucket     operation target               anon     non-member viewer   editor   owner    the user
  ...row("media",   "select", "private deck",      EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED, NA),
  ...row("media",   "insert", "private deck",      RLS,     RLS,       RLS,     ALLOWED, ALLOWED, NA),
  ...row("media",   "update", "private deck",      NOOP,    NOOP,      NOOP,    ALLOWED, ALLOWED, NA),
  ...row("media",   "delete", "private deck",      NOOP,    NOOP,      NOOP,    ALLOWED, ALLOWED, NA),
  ...row("media",   "select", "public deck",       ALLOWED, ALLOWED,   NA,      NA,      NA,      NA),
  ...row("media",   "insert", "public deck",       RLS,     RLS,       NA,      NA,      NA,      NA),
  ...row("media",   "update", "public deck",       NOOP,    NOOP,      NA,      NA,      NA,      NA),
  ...row("media",   "delete", "public deck",       NOOP,    NOOP,      NA,      NA,      NA,      NA),

  ...row("avatars", "select", "the user's folder", EMPTY,   EMPTY,     ALLOWED, ALLOWED, ALLOWED, ALLOWED),
  ...row("avatars", "insert", "the user's folder", RLS,     RLS,       RLS,     RLS,     RLS,     ALLOWED),
  ...row("avatars", "update", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    ALLOWED),
  ...row("avatars", "delete", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    ALLOWED),

  ...row("imports", "select", "the user's folder", EMPTY,   EMPTY,     EMPTY,   EMPTY,   EMPTY,   ALLOWED),
  ...row("imports", "insert", "the user's folder", RLS,     RLS,       RLS,     RLS,     RLS,     ALLOWED),
  ...row("imports", "update", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    ALLOWED),
  ...row("imports", "delete", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    ALLOWED),

  ...row("exports", "select", "the user's folder", EMPTY,   EMPTY,     EMPTY,   EMPTY,   EMPTY,   ALLOWED),
  ...row("exports", "insert", "the user's folder", RLS,     RLS,       RLS,     RLS,     RLS,     RLS),
  ...row("exports", "update", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    NOOP),
  ...row("exports", "delete", "the user's folder", NOOP,    NOOP,      NOOP,    NOOP,    NOOP,    ALLOWED),
];

function actorOf(name: ActorName): Actor {
  return {
    anon,
    "non-member": world.stranger,
    viewer: world.viewer,
    editor: world.editor,
    owner: world.owner,
    "the user": world.classmate,
  }[name];
}

/** The existing object a cell reads, updates or deletes. */
function existingObject(bucket: Bucket, target: Target): string {
  if (bucket === "media") return target === "public deck" ? world.publicDeck.mediaPath : world.privateDeck.mediaPath;
  return world.classmateObjects[bucket];
}

/** Where a cell uploads: a new file in the same folder as the existing object. */
function newObject(bucket: Bucket, target: Target): string {
  const folder = existingObject(bucket, target).split("/")[0];
  return `${folder}/${bucket === "media" || bucket === "avatars" ? "probe-upload.png" : "probe-upload.apkg"}`;
}

function objectState(bucket: Bucket, name: string) {
  return (q: Queryable) =>
    q.query("select owner_id, metadata ->> 'size' as size from storage.objects where bucket_id = $1 and name = $2", [
      bucket,
      name,
    ]);
}

/** A type each bucket takes: the metadata an upload declares unless a test says otherwise. */
function fittingMetadata(bucket: string): Record<string, unknown> {
  return { size: 1024, mimetype: bucket === "media" || bucket === "avatars" ? "image/png" : "application/zip" };
}

/**
 * An upload as the storage API checks it: the caller is the owner and the row
 * holds the metadata Storage has then (on a copy, the source's).
 */
function upload(bucket: string, name: string, metadata = fittingMetadata(bucket)): Probe {
  return {
    act: (tx) =>
      tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
         values ($1, $2, auth.uid(), auth.uid()::text, $3)`,
        [bucket, name, JSON.stringify(metadata)],
      ),
    state: (q) => q.query("select owner_id from storage.objects where bucket_id = $1 and name = $2", [bucket, name]),
  };
}

function probeFor(cell: Cell): Probe {
  const { bucket, target } = cell;
  switch (cell.operation) {
    case "select": {
      const name = existingObject(bucket, target);
      return {
        act: (tx) => tx.query("select name from storage.objects where bucket_id = $1 and name = $2", [bucket, name]),
        rows: (rows) => expect(rows).toEqual([{ name }]),
      };
    }
    case "insert": {
      const actor = actorOf(cell.actor);
      return {
        ...upload(bucket, newObject(bucket, target)),
        effect: (after) => expect(after).toEqual([{ owner_id: actor.kind === "user" ? actor.id : null }]),
      };
    }
    case "update": {
      // An overwrite (upload with x-upsert) updates the object's metadata in place, the caller its owner.
      const name = existingObject(bucket, target);
      return {
        act: (tx) =>
          tx.query(
            `update storage.objects set metadata = metadata || '{"size": 2048}', updated_at = now(),
               owner = auth.uid(), owner_id = auth.uid()::text
             where bucket_id = $1 and name = $2 returning id`,
            [bucket, name],
          ),
        state: objectState(bucket, name),
        effect: (after) => expect(after).toEqual([expect.objectContaining({ size: "2048" })]),
      };
    }
    case "delete": {
      const name = existingObject(bucket, target);
      return {
        // As the Storage API deletes: its triggers refuse a DELETE without this flag.
        act: async (tx) => {
          await tx.query("select set_config('storage.allow_delete_query', 'true', true)");
          return tx.query("delete from storage.objects where bucket_id = $1 and name = $2 returning id", [
            bucket,
            name,
          ]);
        },
        state: objectState(bucket, name),
        effect: (after) => expect(after).toEqual([]),
      };
    }
  }
}

const buckets = [...new Set(matrix.map((cell) => cell.bucket))];

describe.each(buckets)("%s bucket", (bucket) => {
  test.each(matrix.filter((cell) => cell.bucket === bucket))("$name", async (cell) => {
    await expectOutcome(db, actorOf(cell.actor), probeFor(cell), cell.expected);
  });
});

describe("bad paths are refused", () => {
  // Each path is tried by someone who could upload to its first folder were
  // it well formed, so only the path itself is at fault.
  const cases: [string, () => User, Bucket, () => string][] = [
    ["a first folder that is not a uuid", () => world.owner, "media", () => "organic-chemistry/benzene.png"],
    ["a file outside any folder", () => world.owner, "media", () => "benzene.png"],
    ["a deck the uploader does not edit", () => world.editor, "media", () => `${world.publicDeck.id}/benzene.png`],
    ["'../' before the deck folder", () => world.owner, "media", () => `../${world.privateDeck.id}/benzene.png`],
    // Resolved as a file path this lands in the public deck's folder, which the editor may not write.
    [
      "'../' out of an editable deck into another deck",
      () => world.editor,
      "media",
      () => `${world.privateDeck.id}/../${world.publicDeck.id}/benzene.png`,
    ],
    ["another user's avatars folder", () => world.classmate, "avatars", () => `${world.viewer.id}/avatar.png`],
    [
      "'../' out of another user's folder into one's own",
      () => world.classmate,
      "avatars",
      () => `${world.viewer.id}/../${world.classmate.id}/avatar.png`,
    ],
    [
      "'../' out of one's own folder into another user's",
      () => world.classmate,
      "avatars",
      () => `${world.classmate.id}/../${world.viewer.id}/avatar.png`,
    ],
    ["'./' before one's own folder", () => world.classmate, "imports", () => `./${world.classmate.id}/deck.apkg`],
    [
      "a leading '/' before one's own folder",
      () => world.classmate,
      "imports",
      () => `/${world.classmate.id}/deck.apkg`,
    ],
    ["another user's imports folder", () => world.classmate, "imports", () => `${world.stranger.id}/deck.apkg`],
    [
      "'../' out of one's own imports folder into another user's",
      () => world.classmate,
      "imports",
      () => `${world.classmate.id}/../${world.stranger.id}/deck.apkg`,
    ],
    [
      "one's own exports folder (exports are written by the export function)",
      () => world.classmate,
      "exports",
      () => `${world.classmate.id}/deck.apkg`,
    ],
    // Nothing Engram stores lies deeper than its folder.
    [
      "a subfolder of one's deck's media",
      () => world.owner,
      "media",
      () => `${world.privateDeck.id}/images/benzene.png`,
    ],
    ["a subfolder of one's imports", () => world.classmate, "imports", () => `${world.classmate.id}/2026/deck.apkg`],
    ["a hidden file in one's deck's media", () => world.owner, "media", () => `${world.privateDeck.id}/.htaccess`],
    ["a folder with no file name", () => world.classmate, "avatars", () => `${world.classmate.id}/`],
    ["a file name with a line break", () => world.classmate, "avatars", () => `${world.classmate.id}/a\nb.png`],
    [
      "a file name over 255 characters",
      () => world.classmate,
      "avatars",
      () => `${world.classmate.id}/${"a".repeat(252)}.png`,
    ],
  ];
  test.each(cases)("an upload to %s", async (_why, who, bucket, name) => {
    await expectOutcome(db, who(), upload(bucket, name()), RLS);
  });

  // Controls for the cases above: well-formed paths in the same folders pass.
  test.each([
    ["the owner to their deck's media", () => world.owner, "media", () => `${world.privateDeck.id}/chlorine.png`],
    ["the user to their imports", () => world.classmate, "imports", () => `${world.classmate.id}/deck.apkg`],
    [
      "the user to a file name of 255 characters",
      () => world.classmate,
      "avatars",
      () => `${world.classmate.id}/${"a".repeat(251)}.png`,
    ],
    [
      "the user to a file whose name contains dots",
      () => world.classmate,
      "avatars",
      () => `${world.classmate.id}/me..v2.png`,
    ],
  ] as const)("an upload by %s is accepted", async (_why, who, bucket, name) => {
    const probe: Probe = {
      ...upload(bucket, name()),
      effect: (after) => expect(after).toEqual([{ owner_id: who().id }]),
    };
    await expectOutcome(db, who(), probe, ALLOWED);
  });

  // As Storage moves: the caller becomes the owner, the metadata stays the source's.
  const move = (bucket: Bucket, from: () => string, toBucket: Bucket, to: () => string): Probe => ({
    act: (tx) =>
      tx.query(
        `update storage.objects set bucket_id = $3, name = $4, owner = auth.uid(), owner_id = auth.uid()::text
         where bucket_id = $1 and name = $2 returning id`,
        [bucket, from(), toBucket, to()],
      ),
    state: (q) =>
      q.query("select bucket_id, name from storage.objects where bucket_id = $1 and name = $2", [bucket, from()]),
  });

  test("the user cannot move their import into another user's folder", async () => {
    const probe = move(
      "imports",
      () => world.classmateObjects.imports,
      "imports",
      () => `${world.stranger.id}/deck.apkg`,
    );
    await expectOutcome(db, world.classmate, probe, RLS);
  });

  test("the user cannot move their import into exports", async () => {
    const probe = move(
      "imports",
      () => world.classmateObjects.imports,
      "exports",
      () => world.classmateObjects.imports,
    );
    await expectOutcome(db, world.classmate, probe, RLS);
  });

  test("the user cannot rename their import with '../' into another user's folder", async () => {
    const target = () => `${world.classmate.id}/../${world.stranger.id}/deck.apkg`;
    await expectOutcome(
      db,
      world.classmate,
      move("imports", () => world.classmateObjects.imports, "imports", target),
      RLS,
    );
  });

  test("an editor cannot move media into a deck they do not edit", async () => {
    const probe = move(
      "media",
      () => world.privateDeck.mediaPath,
      "media",
      () => `${world.publicDeck.id}/benzene.png`,
    );
    await expectOutcome(db, world.editor, probe, RLS);
  });
});

// Storage checks a bucket's types and size limit on upload only: a copy reaches
// the database as an insert with the source's metadata (and the type the copy
// declares), a move as an update that keeps the source's metadata.
describe("every write is owned by the caller and fits its bucket", () => {
  const mediaName = () => `${world.privateDeck.id}/probe-${crypto.randomUUID().slice(0, 8)}.png`;
  const avatarName = () => `${world.classmate.id}/probe-${crypto.randomUUID().slice(0, 8)}.png`;
  const mb = 1024 * 1024;

  test.each([
    ["an SVG in a deck's media", () => world.owner, "media", mediaName, { size: 512, mimetype: "image/svg+xml" }],
    ["HTML in a deck's media", () => world.owner, "media", mediaName, { size: 512, mimetype: "text/html" }],
    ["no declared type in a deck's media", () => world.owner, "media", mediaName, { size: 512 }],
    ["a sound as an avatar", () => world.classmate, "avatars", avatarName, { size: 512, mimetype: "audio/mpeg" }],
    [
      "3 MB as an avatar (2 MB at most)",
      () => world.classmate,
      "avatars",
      avatarName,
      { size: 3 * mb, mimetype: "image/png" },
    ],
    [
      "11 MB in a deck's media (10 MB at most)",
      () => world.owner,
      "media",
      mediaName,
      { size: 11 * mb, mimetype: "image/png" },
    ],
    [
      "an SVG in one's imports",
      () => world.classmate,
      "imports",
      () => `${world.classmate.id}/deck.svg`,
      { size: 512, mimetype: "image/svg+xml" },
    ],
  ] as const)("an insert (upload or copy) of %s is refused", async (_what, who, bucket, name, metadata) => {
    await expectOutcome(db, who(), upload(bucket, name(), metadata), RLS);
  });

  test.each([
    ["3 MB in a deck's media", () => world.owner, "media", mediaName, { size: 3 * mb, mimetype: "image/png" }],
    // What Storage's upload shows the policies: the declared type and the request's length, no size yet.
    [
      "an upload as Storage checks it",
      () => world.classmate,
      "avatars",
      avatarName,
      { mimetype: "image/webp", contentLength: 4096 },
    ],
  ] as const)("an insert of %s is accepted", async (_what, who, bucket, name, metadata) => {
    const probe: Probe = {
      ...upload(bucket, name(), metadata),
      effect: (after) => expect(after).toEqual([{ owner_id: who().id }]),
    };
    await expectOutcome(db, who(), probe, ALLOWED);
  });

  test("an upload recorded as someone else's is refused", async () => {
    const name = mediaName();
    const probe: Probe = {
      act: (tx) =>
        tx.query(
          "insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ('media', $1, $2, $3, $4)",
          [name, world.editor.id, world.editor.id, JSON.stringify(fittingMetadata("media"))],
        ),
      state: (q) => q.query("select owner_id from storage.objects where bucket_id = 'media' and name = $1", [name]),
    };
    await expectOutcome(db, world.owner, probe, RLS);
  });

  // As Storage moves: the caller becomes the owner, the metadata stays the source's.
  const moveInto = (fromBucket: Bucket, from: () => string, toBucket: Bucket, to: () => string): Probe => ({
    act: (tx) =>
      tx.query(
        `update storage.objects set bucket_id = $3, name = $4, owner = auth.uid(), owner_id = auth.uid()::text
         where bucket_id = $1 and name = $2 returning id`,
        [fromBucket, from(), toBucket, to()],
      ),
    state: (q) =>
      q.query("select bucket_id, name from storage.objects where bucket_id = $1 and name = $2", [fromBucket, from()]),
  });

  test("the user cannot move their import (a package) into their avatars", async () => {
    const probe = moveInto("imports", () => world.classmateObjects.imports, "avatars", avatarName);
    await expectOutcome(db, world.classmate, probe, RLS);
  });

  test("the user cannot move a 3 MB picture from a deck's media into their avatars", async () => {
    const source = mediaName();
    await db.query(
      "insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ('media', $1, $2, $3, $4)",
      [source, world.owner.id, world.owner.id, JSON.stringify({ size: 3 * mb, mimetype: "image/png" })],
    );
    await expectOutcome(
      db,
      world.owner,
      moveInto(
        "media",
        () => source,
        "avatars",
        () => `${world.owner.id}/big.png`,
      ),
      RLS,
    );
  });

  test("an editor may rename media within their deck", async () => {
    const to = mediaName();
    const probe: Probe = {
      ...moveInto(
        "media",
        () => world.privateDeck.mediaPath,
        "media",
        () => to,
      ),
      state: (q) => q.query("select owner_id from storage.objects where bucket_id = 'media' and name = $1", [to]),
      effect: (after) => expect(after).toEqual([{ owner_id: world.editor.id }]),
    };
    await expectOutcome(db, world.editor, probe, ALLOWED);
  });
});

describe("service_role bypasses storage policies", () => {
  // The export-deck function writes the file it produced into the user's folder.
  test("service_role writes an export into the user's folder", async () => {
    const name = `${world.classmate.id}/fresh-export.apkg`;
    const result = await probeAs(db, service, async (tx) => {
      await insertObject(tx, "exports", name, null);
      return tx.query("select name from storage.objects where bucket_id = 'exports' and name = $1", [name]);
    });
    expect(result).toEqual({ ok: true, value: [{ name }] });
  });

  test("service_role reads every bucket's objects", async () => {
    const result = await probeAs(db, service, (tx) =>
      tx.query<{ bucket_id: string; name: string }>(
        "select bucket_id, name from storage.objects where name = any ($1) order by bucket_id",
        [[world.privateDeck.mediaPath, ...Object.values(world.classmateObjects)]],
      ),
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { bucket_id: "avatars", name: world.classmateObjects.avatars },
        { bucket_id: "exports", name: world.classmateObjects.exports },
        { bucket_id: "imports", name: world.classmateObjects.imports },
        { bucket_id: "media", name: world.privateDeck.mediaPath },
      ],
    });
  });
});
