import { describe, expect, it } from "vitest";
import { parseFilter, parseLogic, parseOrder } from "./filters.js";

const field = { column: "c", path: [] };

describe("parseFilter", () => {
  it("parses operator, negation, modifiers and lists", () => {
    expect(parseFilter(field, "not.eq.a.b")).toMatchObject({ op: "eq", negate: true, value: "a.b" });
    expect(parseFilter(field, 'in.(1,"a,b",c)')).toMatchObject({ op: "in", list: ["1", "a,b", "c"] });
    expect(parseFilter(field, "wfts(english).cat dog")).toMatchObject({
      op: "wfts",
      config: "english",
      value: "cat dog",
    });
    expect(parseFilter(field, "like(any).{a*,b*}")).toMatchObject({
      op: "like",
      quantifier: "any",
      list: ["a*", "b*"],
    });
  });

  it("rejects unknown operators, bad is values and bad configurations", () => {
    expect(() => parseFilter(field, "between.1")).toThrow(/failed to parse filter/);
    expect(() => parseFilter(field, "is.maybe")).toThrow(/failed to parse filter/);
    expect(() => parseFilter(field, "fts(x');--).a")).toThrow(/failed to parse filter/);
    expect(() => parseFilter(field, "in.1,2")).toThrow(/failed to parse filter/);
  });
});

describe("parseLogic", () => {
  it("parses nested trees with quoted values", () => {
    const tree = parseLogic("or", false, '(a.eq.1,and(b.gt.2,c.not.is.null),d.eq."x,y",not.or(e.lt.0))');
    expect(tree).toMatchObject({
      type: "logic",
      op: "or",
      children: [
        { type: "filter", filter: { op: "eq", value: "1" } },
        { type: "logic", op: "and", children: [{}, { filter: { op: "is", negate: true } }] },
        { type: "filter", filter: { op: "eq", value: "x,y" } },
        { type: "logic", op: "or", negate: true },
      ],
    });
  });

  it("rejects unbalanced trees", () => {
    expect(() => parseLogic("or", false, "(a.eq.1")).toThrow(/failed to parse filter/);
  });
});

describe("parseOrder", () => {
  it("parses directions, nulls placement and embedded columns", () => {
    expect(parseOrder("a.desc.nullslast,users(name),b")).toEqual([
      { relation: null, field: { column: "a", path: [] }, direction: "desc", nulls: "last" },
      { relation: "users", field: { column: "name", path: [] }, direction: null, nulls: null },
      { relation: null, field: { column: "b", path: [] }, direction: null, nulls: null },
    ]);
    expect(() => parseOrder("a.sideways")).toThrow(/failed to parse order/);
  });
});
