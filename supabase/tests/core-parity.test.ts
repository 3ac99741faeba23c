import {
  basicFieldsSchema,
  cardOrdinals,
  clozeFieldsSchema,
  clozeNesting,
  clozeOrdinals,
  deckNameSchema,
  limits,
  type NoteType,
  stripMarkup,
  studyDay,
  tagsSchema,
  validationCases,
} from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, createUser, openTestDatabase, probeAs } from "./support/database.js";

// Rules that live both in @engram/core (so the UI answers instantly and
// offline) and in the database (so they hold for every client). These tests
// feed the same inputs to both and require the same answers.

let db: Database;
let owner: Actor & { kind: "user" };
let deckId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  owner = await createUser(db);
  deckId = await actAs(db, owner, async (tx) => {
    const [deck] = await tx.query<{ id: string }>("insert into decks (name) values ('Parity') returning id");
    return deck?.id ?? "";
  });
});
afterAll(() => db.close());

/** A small deterministic PRNG (mulberry32), so generated cases are the same every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Texts assembled from the pieces cloze syntax is made of, in random order. */
function generatedClozeTexts(count: number): string[] {
  const pieces = [
    "{{c1::",
    "{{c2::",
    "{{c3::",
    "{{c0::",
    "{{c12::",
    "{{c",
    "}}",
    "}",
    "{",
    "::",
    ":",
    "a",
    " ",
    "1",
    "c",
  ];
  const next = random(42);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 14);
    return Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join("");
  });
}

async function sqlMap<T>(sql: string, inputs: unknown[]): Promise<T[]> {
  const rows = await db.query<{ value: T }>(sql, [inputs]);
  return rows.map((row) => row.value);
}

describe("cloze numbers", () => {
  const texts = [
    ...validationCases.clozeText.valid,
    ...validationCases.clozeText.invalid.map((c) => c.value),
    "{{c1::x {{c99999999999::y}}",
    "{{c2::b}} {{c1::a}} {{c2::again}}",
    "{{c1::outer {{c2::inner {{c3::deepest}}}} tail}}",
    "{{c9::{{c1::a {{c2::b}}}}",
    "{{c1::{{c1::{{c1::{{c2::x}}",
    "{{c1::a {{c3000000000::b {{c2::c}}}} d}}",
    ...generatedClozeTexts(1500),
  ];

  test("the database finds the same deletion numbers as @engram/core", async () => {
    const fromSql = await sqlMap<number[]>(
      "select private.cloze_ordinals(t) as value from unnest($1::text[]) with ordinality as u(t, i) order by i",
      texts,
    );
    const mismatches = texts
      .map((text, i) => ({ text, sql: fromSql[i], core: clozeOrdinals(text) }))
      .filter((row) => JSON.stringify(row.sql) !== JSON.stringify(row.core));
    expect(mismatches).toEqual([]);
  });

  test("the database measures the same nesting depth as @engram/core", async () => {
    const fromSql = await sqlMap<number>(
      "select private.cloze_nesting(t) as value from unnest($1::text[]) with ordinality as u(t, i) order by i",
      texts,
    );
    const mismatches = texts
      .map((text, i) => ({ text: text.slice(0, 80), sql: fromSql[i], core: clozeNesting(text) }))
      .filter((row) => row.sql !== row.core);
    expect(mismatches).toEqual([]);
    // The examples reach past the limit, so the comparison covers it.
    expect(Math.max(...texts.map(clozeNesting))).toBeGreaterThan(limits.clozeNestingDepth);
  });
});

describe("card ordinals of custom notes", () => {
  // Templates and field values assembled from the pieces Anki's template
  // language and its emptiness rule are made of, in random order.
  const templatePieces = [
    "{{A}}",
    "{{B}}",
    "{{ A }}",
    "{{text:B}}",
    "{{cloze:A}}",
    "{{type:cloze:B}}",
    "{{#A}}",
    "{{/A}}",
    "{{^B}}",
    "{{/B}}",
    "{{#Tags}}",
    "{{/Tags}}",
    "{{Tags}}",
    "{{Deck}}",
    "{{FrontSide}}",
    "{{!note}}",
    "<!--",
    "-->",
    "{{",
    "}}",
    "{",
    "}",
    "text",
    " ",
    "{{{A}}}",
    "{{#}}",
    "{{/}}",
    "{{C}}",
  ];
  const valuePieces = ["", " ", "<br>", "<div />", "&nbsp;", "x", "<b>", "{{c1::a}}", "{{c2::b::h}}", "\n", "{{c3::"];
  const rand = random(7);
  const pick = <T>(pieces: readonly T[]) => pieces[Math.floor(rand() * pieces.length)] as T;
  const assemble = (pieces: readonly string[], length: number) =>
    Array.from({ length: Math.floor(rand() * length) }, () => pick(pieces)).join("");
  const cases = Array.from({ length: 400 }, (_, i) => {
    const kind: NoteType["kind"] = i % 4 === 0 ? "cloze" : "standard";
    const templates = Array.from({ length: kind === "cloze" ? 1 : 1 + Math.floor(rand() * 3) }, (_, t) => ({
      name: `Card ${t + 1}`,
      front: assemble(templatePieces, 8),
      back: "",
    }));
    const type: NoteType = { name: "Generated", kind, fields: ["A", "B", "Deck"], templates, css: "" };
    const fields = { A: assemble(valuePieces, 3), B: assemble(valuePieces, 3), Deck: assemble(valuePieces, 2) };
    return { type, fields, tags: rand() < 0.5 ? [] : ["t"] };
  });

  test("the database makes the same cards as @engram/core", async () => {
    const rows = await db.query<{ value: number[] }>(
      `select private.template_ordinals(c ->> 'kind', array(select jsonb_array_elements_text(c -> 'typeFields')),
         c -> 'templates', c -> 'fields', array(select jsonb_array_elements_text(c -> 'tags'))) as value
       from jsonb_array_elements($1::jsonb) with ordinality as u(c, i) order by i`,
      [
        JSON.stringify(
          cases.map((c) => ({
            kind: c.type.kind,
            typeFields: c.type.fields,
            templates: c.type.templates,
            fields: c.fields,
            tags: c.tags,
          })),
        ),
      ],
    );
    const core = cases.map((c) => cardOrdinals({ kind: "custom", noteType: c.type, fields: c.fields, tags: c.tags }));
    expect(rows.map((row) => row.value)).toEqual(core);
    // The generated cases reach more than the default card: other single cards and several.
    expect(new Set(core.map((ordinals) => JSON.stringify(ordinals))).size).toBeGreaterThan(4);
    expect(core.filter((ordinals) => ordinals.length > 1).length).toBeGreaterThan(4);
  });
});

describe("markup stripping", () => {
  const inputs = [
    "<b>bold</b>",
    "  <i> </i>  ",
    "&nbsp;",
    "&NBSP;",
    " &nbsp;<br>&nbsp; ",
    "a < b",
    "<img src=x>",
    "\n",
    "<p>para</p>\n<p>graph</p>",
    "x&nbsp;&nbsp;y",
  ];

  test("the database strips markup exactly as @engram/core does", async () => {
    const fromSql = await sqlMap<string>(
      "select private.strip_markup(t) as value from unnest($1::text[]) with ordinality as u(t, i) order by i",
      inputs,
    );
    expect(fromSql).toEqual(inputs.map(stripMarkup));
  });
});

describe("the study day", () => {
  const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe"];
  const hours = [0, 1, 2, 3, 4, 12, 23];
  // Around the 2026 DST changes of the zones above, and ordinary days.
  const anchors = [
    "2026-03-08T07:30:00Z",
    "2026-03-29T00:30:00Z",
    "2026-04-05T14:00:00Z",
    "2026-09-27T13:00:00Z",
    "2026-10-04T15:30:00Z",
    "2026-10-25T01:30:00Z",
    "2026-11-01T05:30:00Z",
    "2026-06-15T12:00:00Z",
  ];
  const instants = anchors.flatMap((anchor) =>
    Array.from({ length: 12 }, (_, i) => new Date(Date.parse(anchor) + (i - 6) * 37 * 60_000)),
  );
  const cases = zones.flatMap((zone) => hours.flatMap((hour) => instants.map((at) => ({ zone, hour, at }))));

  test("the database's day window matches @engram/core's in every zone, hour and DST change", async () => {
    const rows = await db.query<{ day_start: Date; day_end: Date }>(
      `select d.day_start, d.day_end
       from unnest($1::text[], $2::int[], $3::timestamptz[]) with ordinality as u(zone, hour, at, i)
       cross join lateral private.study_day(u.zone, u.hour, u.at) d
       order by u.i`,
      [cases.map((c) => c.zone), cases.map((c) => c.hour), cases.map((c) => c.at.toISOString())],
    );
    const mismatches = cases
      .map((c, i) => {
        const core = studyDay(c.at, c.zone, c.hour);
        const sql = rows[i];
        return {
          ...c,
          core: [core.start.toISOString(), core.end.toISOString()],
          sql: [sql?.day_start.toISOString(), sql?.day_end.toISOString()],
        };
      })
      .filter((row) => row.core[0] !== row.sql[0] || row.core[1] !== row.sql[1]);
    expect(mismatches).toEqual([]);
    expect(cases.length).toBeGreaterThan(3000);
  });
});

describe("validation rules", () => {
  async function databaseAccepts(sql: string, params: unknown[]): Promise<boolean> {
    const result = await probeAs(db, owner, (tx) => tx.query(sql, params));
    if (!result.ok && result.error.code !== "23514") throw result.error;
    return result.ok;
  }

  const rules = [
    {
      name: "deck names",
      cases: validationCases.deckName,
      core: (value: string) => deckNameSchema.safeParse(value).success,
      sql: (value: string) => databaseAccepts("insert into decks (name) values ($1)", [value]),
    },
    {
      name: "tags",
      cases: validationCases.tags,
      core: (value: string[]) => tagsSchema.safeParse(value).success,
      sql: (value: string[]) =>
        databaseAccepts(
          `insert into notes (deck_id, kind, fields, tags) values ($1, 'basic', '{"front":"q","back":"a"}', $2)`,
          [deckId, value],
        ),
    },
    {
      name: "basic fields",
      cases: validationCases.basicFields,
      core: (value: { front: string; back: string }) => basicFieldsSchema.safeParse(value).success,
      sql: (value: { front: string; back: string }) =>
        databaseAccepts("insert into notes (deck_id, kind, fields) values ($1, 'basic', $2)", [
          deckId,
          JSON.stringify(value),
        ]),
    },
    {
      name: "cloze texts",
      cases: validationCases.clozeText,
      core: (value: string) => clozeFieldsSchema.safeParse({ text: value, extra: "" }).success,
      sql: (value: string) =>
        databaseAccepts("insert into notes (deck_id, kind, fields) values ($1, 'cloze', $2)", [
          deckId,
          JSON.stringify({ text: value, extra: "" }),
        ]),
    },
  ] as const;

  for (const rule of rules) {
    test(`the database and @engram/core agree on every example of ${rule.name}`, async () => {
      const verdicts = [];
      const examples = [
        ...rule.cases.valid.map((value) => ({ value, expected: true, why: "valid" })),
        ...rule.cases.invalid.map((c) => ({ value: c.value, expected: false, why: c.rule })),
      ];
      for (const example of examples) {
        // biome-ignore lint/suspicious/noExplicitAny: each rule's examples match its own checkers
        const check = rule as any;
        verdicts.push({
          why: example.why,
          value: JSON.stringify(example.value).slice(0, 60),
          expected: example.expected,
          core: check.core(example.value),
          sql: await check.sql(example.value),
        });
      }
      expect(verdicts.filter((v) => v.core !== v.expected || v.sql !== v.expected)).toEqual([]);
    });
  }
});
