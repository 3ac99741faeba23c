import { describe, expect, it } from "vitest";
import { parseSelect } from "./select-parser.js";

describe("parseSelect", () => {
  it("parses columns, aliases, casts and JSON paths", () => {
    expect(parseSelect('id,name:"full name",age::text,data->a->>b,x:data->0')).toEqual([
      { type: "column", alias: null, field: { column: "id", path: [] }, cast: null },
      { type: "column", alias: "name", field: { column: "full name", path: [] }, cast: null },
      { type: "column", alias: null, field: { column: "age", path: [] }, cast: "text" },
      {
        type: "column",
        alias: null,
        field: {
          column: "data",
          path: [
            { arrow: "->", key: "a" },
            { arrow: "->>", key: "b" },
          ],
        },
        cast: null,
      },
      { type: "column", alias: "x", field: { column: "data", path: [{ arrow: "->", key: "0" }] }, cast: null },
    ]);
  });

  it("parses embeds with hints, inner joins, aliases and spreads", () => {
    expect(parseSelect("*,a:users!author_id!inner(id),...channels(slug),tags!left()")).toEqual([
      { type: "star" },
      {
        type: "embed",
        alias: "a",
        name: "users",
        hint: "author_id",
        inner: true,
        spread: false,
        select: [{ type: "column", alias: null, field: { column: "id", path: [] }, cast: null }],
      },
      {
        type: "embed",
        alias: null,
        name: "channels",
        hint: null,
        inner: false,
        spread: true,
        select: [{ type: "column", alias: null, field: { column: "slug", path: [] }, cast: null }],
      },
      { type: "embed", alias: null, name: "tags", hint: null, inner: false, spread: false, select: [] },
    ]);
  });

  it("ignores whitespace outside quotes", () => {
    expect(parseSelect(" id , users ( name ) ")).toHaveLength(2);
  });

  it("rejects malformed input and casts outside the whitelist", () => {
    expect(() => parseSelect("id,users(name")).toThrow(/failed to parse select parameter/);
    expect(() => parseSelect("id)")).toThrow(/failed to parse select parameter/);
    expect(() => parseSelect("id::text;drop")).toThrow(/failed to parse select parameter/);
    expect(() => parseSelect("id::regclass")).toThrow(/failed to parse select parameter/);
  });

  it("parses aggregates with the casts of their input and result", () => {
    expect(parseSelect("count(),n:count()::text,amount::int.sum()::text,a->b.max()")).toEqual([
      {
        type: "column",
        alias: null,
        field: { column: "*", path: [] },
        cast: null,
        aggregate: { fn: "count", cast: null },
      },
      {
        type: "column",
        alias: "n",
        field: { column: "*", path: [] },
        cast: null,
        aggregate: { fn: "count", cast: "text" },
      },
      {
        type: "column",
        alias: null,
        field: { column: "amount", path: [] },
        cast: "int",
        aggregate: { fn: "sum", cast: "text" },
      },
      {
        type: "column",
        alias: null,
        field: { column: "a", path: [{ arrow: "->", key: "b" }] },
        cast: null,
        aggregate: { fn: "max", cast: null },
      },
    ]);
    expect(() => parseSelect("id.median()")).toThrow(/failed to parse select parameter/);
    expect(() => parseSelect("id.sum")).toThrow(/failed to parse select parameter/);
  });
});
