import { randomUUID } from "node:crypto";
import { cardOrdinals, occlusionOrdinals } from "@engram/core";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { createDeck, failure, only, type User } from "./support/study-fixtures.js";

// Image occlusion notes (docs/product.md §3): one card per group of masks, the
// same groups @engram/core finds; the notes constraints and staged imports
// accept the kind and refuse a note without an image or a group.

let db: Database;
let olga: User;
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  olga = await createUser(db, { displayName: "Olga" });
  deck = await createDeck(db, olga, { name: "Anatomy" });
});
afterAll(() => db.close());

const occlusions =
  "{{c1::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:oi=1}}<br>" +
  "{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.1:oi=1}}<br>" +
  "{{c2::image-occlusion:rect:left=.7:top=.1:width=.1:height=.1:oi=1}}<br>" +
  "{{c0::image-occlusion:text:left=.4:top=.9:text=Label:scale=1.}}<br>";

const ioFields = (overrides: Record<string, unknown> = {}) => ({
  image: '<img src="heart.png">',
  occlusions,
  header: "Heart",
  back_extra: "",
  comments: "",
  ...overrides,
});

function insert(tx: Queryable, fields: Record<string, unknown>) {
  return tx
    .query<{ id: string }>(
      "insert into notes (deck_id, kind, fields) values ($1, 'image_occlusion', $2) returning id",
      [deck, JSON.stringify(fields)],
    )
    .then((rows) => only(rows, "note").id);
}
const ordinalsOf = async (noteId: string) =>
  (await db.query<{ ordinal: number }>("select ordinal from cards where note_id = $1 order by ordinal", [noteId])).map(
    (row) => row.ordinal,
  );

describe("image occlusion notes", () => {
  test("get one card per group, and editing the groups adds and removes cards", async () => {
    const noteId = await actAs(db, olga, (tx) => insert(tx, ioFields()));
    expect(await ordinalsOf(noteId)).toEqual([1, 2]);
    const more = `${occlusions}{{c3::image-occlusion:rect:left=0:top=0:width=.1:height=.1}}<br>`;
    await actAs(db, olga, (tx) =>
      tx.query("update notes set fields = $2 where id = $1", [noteId, JSON.stringify(ioFields({ occlusions: more }))]),
    );
    expect(await ordinalsOf(noteId)).toEqual([1, 2, 3]);
  });

  test.each([
    ["no image", ioFields({ image: "just text" }), "notes_occlusion_image_required"],
    [
      "no group",
      ioFields({ occlusions: "{{c0::image-occlusion:text:left=0:top=0:text=x}}" }),
      "notes_occlusion_groups",
    ],
    ["a stray field", { ...ioFields(), front: "x" }, "notes_fields_shape"],
    ["a field that is not text", ioFields({ header: 3 }), "notes_fields_shape"],
    ["an overlong field", ioFields({ comments: "x".repeat(20001) }), "notes_field_length"],
  ])("refuse %s", async (_, fields, constraint) => {
    const error = await failure(actAs(db, olga, (tx) => insert(tx, fields)));
    expect(error.message).toContain(constraint);
  });

  test("the database finds the same groups as @engram/core", async () => {
    const texts = [
      occlusions,
      "{{c01::image-occlusion:rect:left=0}}{{c3::image-occlusion:rect}}{{c3::image-occlusion:}}",
      "{{c1,2::image-occlusion:rect:left=0}}{{c4::image-occlusion:rect:left=0",
      "{{c5::image-occlusion:text:text=a}b:left=0}}{{c6::image-occlusion:text:text=a}}}{{c7::plain}}",
      "{{c99999999999::image-occlusion:rect:left=0}}{{c2147483647::image-occlusion:rect:left=0}}",
      "{{c2::image-occlusion:{{c8::image-occlusion:rect}}",
      "",
    ];
    const rows = await db.query<{ value: number[] }>(
      "select private.occlusion_ordinals(t) as value from unnest($1::text[]) with ordinality as u(t, n) order by n",
      [texts],
    );
    expect(rows.map((row) => row.value)).toEqual(texts.map(occlusionOrdinals));
    const fields = ioFields();
    const [sql] = await db.query<{ value: number[] }>("select private.note_ordinals('image_occlusion', $1) as value", [
      JSON.stringify(fields),
    ]);
    expect(sql?.value).toEqual(cardOrdinals({ kind: "image_occlusion", fields }));
  });

  test("an import may stage image occlusion notes with their cards' schedules", async () => {
    const jobId = randomUUID();
    await actAs(db, olga, async (tx) => {
      await tx.query("select * from start_import($1, 'apkg', 2, $2, null, '{}')", [jobId, deck]);
      const note = (guid: string, fields: Record<string, unknown>) => ({
        guid,
        kind: "image_occlusion",
        fields,
        cards: [{ ordinal: 2, suspended: true }],
      });
      await tx.query("select * from stage_import($1, 0, $2, 2)", [
        jobId,
        JSON.stringify({ notes: [note("io-1", ioFields()), note("io-2", ioFields({ image: "" }))] }),
      ]);
    });
    const refused = await failure(actAs(db, olga, (tx) => tx.query("select * from finish_import($1, '{}')", [jobId])));
    expect(refused.message).toContain("the image is missing");

    const okId = randomUUID();
    await actAs(db, olga, async (tx) => {
      await tx.query("select * from start_import($1, 'apkg', 1, $2, null, '{}')", [okId, deck]);
      await tx.query("select * from stage_import($1, 0, $2, 1)", [
        okId,
        JSON.stringify({
          notes: [
            { guid: "io-3", kind: "image_occlusion", fields: ioFields(), cards: [{ ordinal: 2, suspended: true }] },
          ],
        }),
      ]);
      await tx.query("select * from finish_import($1, '{}')", [okId]);
    });
    const [note] = await db.query<{ id: string; kind: string }>(
      "select id, kind from notes where deck_id = $1 and source_guid = 'io-3'",
      [deck],
    );
    expect(note?.kind).toBe("image_occlusion");
    expect(await ordinalsOf(note?.id ?? "")).toEqual([1, 2]);
    const suspended = await db.query<{ ordinal: number }>(
      "select c.ordinal from cards c join card_states s on s.card_id = c.id where c.note_id = $1 and s.suspended",
      [note?.id],
    );
    expect(suspended.map((row) => row.ordinal)).toEqual([2]);
  });
});
