import { describe, expect, it } from "vitest";
import { parseSearch } from "./parse-search";
import { SearchSyntaxError } from "./search-node";

const text = (like: string) => ({ op: "text", like });

function failure(input: string) {
  try {
    parseSearch(input);
  } catch (error) {
    if (error instanceof SearchSyntaxError) return { kind: error.kind, at: error.at };
    throw error;
  }
  throw new Error(`${input} parsed`);
}

describe("Anki's search syntax", () => {
  it("reads an empty search as everything", () => {
    expect(parseSearch("")).toBeNull();
    expect(parseSearch("  \t ")).toBeNull();
  });

  it("matches text anywhere, with * for any run and _ for one character", () => {
    expect(parseSearch("mito")).toEqual(text("%mito%"));
    expect(parseSearch("mito*")).toEqual(text("%mito%%"));
    expect(parseSearch("d_g")).toEqual(text("%d_g%"));
    expect(parseSearch('"a dog"')).toEqual(text("%a dog%"));
    // Literal %, and * _ \ escaped.
    expect(parseSearch("100%")).toEqual(text("%100\\%%"));
    expect(parseSearch("a\\*b\\_c\\\\d")).toEqual(text("%a*b\\_c\\\\d%"));
  });

  it("joins terms with and, or (looser), parentheses and -", () => {
    expect(parseSearch("a b")).toEqual({ op: "and", nodes: [text("%a%"), text("%b%")] });
    expect(parseSearch("a and b")).toEqual(parseSearch("a b"));
    expect(parseSearch("a b or c")).toEqual({
      op: "or",
      nodes: [{ op: "and", nodes: [text("%a%"), text("%b%")] }, text("%c%")],
    });
    expect(parseSearch("a (b OR c)")).toEqual({
      op: "and",
      nodes: [text("%a%"), { op: "or", nodes: [text("%b%"), text("%c%")] }],
    });
    expect(parseSearch("-a -(b or c)")).toEqual({
      op: "and",
      nodes: [
        { op: "not", node: text("%a%") },
        { op: "not", node: { op: "or", nodes: [text("%b%"), text("%c%")] } },
      ],
    });
    // A quoted "or" is a word; "rpm -F" is rpm without F, as in Anki (quote it to search for it).
    expect(parseSearch('"or"')).toEqual(text("%or%"));
    expect(parseSearch("rpm -F")).toEqual({ op: "and", nodes: [text("%rpm%"), { op: "not", node: text("%F%") }] });
    expect(parseSearch('"rpm -F"')).toEqual(text("%rpm -F%"));
  });

  it("reads key:value searches", () => {
    expect(parseSearch("front:dog")).toEqual({ op: "field", field: "front", like: "dog" });
    expect(parseSearch('back:"a *dog"')).toEqual({ op: "field", field: "back", like: "a %dog" });
    expect(parseSearch('"front:a dog"')).toEqual({ op: "field", field: "front", like: "a dog" });
    expect(parseSearch("front:re:^d.g$")).toEqual({ op: "regex", field: "front", regex: "^d.g$" });
    expect(parseSearch('"re:(?-i)Dog"')).toEqual({ op: "regex", regex: "(?-i)Dog" });
    expect(parseSearch("tag:spanish tag:a::*")).toEqual({
      op: "and",
      nodes: [
        { op: "tag", like: "spanish" },
        { op: "tag", like: "a::%" },
      ],
    });
    expect(parseSearch('deck:"Spanish::Verbs"')).toEqual({ op: "deck", like: "Spanish::Verbs" });
    expect(parseSearch("note:Basic card:2 card:Reverse")).toEqual({
      op: "and",
      nodes: [
        { op: "note", like: "Basic" },
        { op: "card", ordinal: 2 },
        { op: "card", like: "Reverse" },
      ],
    });
    expect(parseSearch("w:dog")).toEqual({ op: "word", like: "dog" });
    expect(parseSearch("time\\:10")).toEqual(text("%time:10%"));
  });

  it("reads states, flags, properties and days", () => {
    for (const state of ["new", "learn", "review", "due", "suspended", "buried"]) {
      expect(parseSearch(`is:${state}`)).toEqual({ op: "is", state });
    }
    expect(parseSearch("is:buried-sibling")).toEqual({ op: "is", state: "buried" });
    expect(parseSearch("flag:0 flag:7")).toEqual({
      op: "and",
      nodes: [
        { op: "flag", flag: 0 },
        { op: "flag", flag: 7 },
      ],
    });
    expect(parseSearch("prop:ivl>10")).toEqual({ op: "prop", prop: "ivl", cmp: ">", value: 10 });
    expect(parseSearch("prop:due<3")).toEqual({ op: "prop", prop: "due", cmp: "<", value: 3 });
    expect(parseSearch("prop:due=-1")).toEqual({ op: "prop", prop: "due", cmp: "=", value: -1 });
    expect(parseSearch("prop:lapses>=3")).toEqual({ op: "prop", prop: "lapses", cmp: ">=", value: 3 });
    expect(parseSearch("prop:d>0.8")).toEqual({ op: "prop", prop: "d", cmp: ">", value: 0.8 });
    expect(parseSearch("prop:r!=.9")).toEqual({ op: "prop", prop: "r", cmp: "!=", value: 0.9 });
    expect(parseSearch("rated:7 rated:1:1")).toEqual({
      op: "and",
      nodes: [
        { op: "rated", days: 7 },
        { op: "rated", days: 1, button: 1 },
      ],
    });
    expect(parseSearch("added:30 edited:0 introduced:1")).toEqual({
      op: "and",
      nodes: [
        { op: "added", days: 30 },
        { op: "edited", days: 1 },
        { op: "introduced", days: 1 },
      ],
    });
    const id = "0b7e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
    expect(parseSearch(`nid:${id.toUpperCase()},${id}`)).toEqual({ op: "nid", ids: [id, id] });
    expect(parseSearch(`cid:${id}`)).toEqual({ op: "cid", ids: [id] });
  });

  it("says what is wrong and where", () => {
    expect(failure("a or")).toMatchObject({ kind: "misplaced-or" });
    expect(failure("or a")).toMatchObject({ kind: "misplaced-or", at: 0 });
    expect(failure("a and")).toMatchObject({ kind: "misplaced-and" });
    expect(failure("a )")).toEqual({ kind: "unopened-group", at: 2 });
    expect(failure("(a")).toEqual({ kind: "unclosed-group", at: 0 });
    expect(failure("a ()")).toEqual({ kind: "empty-group", at: 2 });
    expect(failure('a "b')).toEqual({ kind: "unclosed-quote", at: 2 });
    expect(failure('""')).toMatchObject({ kind: "empty-quote" });
    expect(failure(":dog")).toMatchObject({ kind: "missing-key" });
    expect(failure("a\\q")).toMatchObject({ kind: "unknown-escape" });
    expect(failure("flag:8")).toMatchObject({ kind: "invalid-flag" });
    expect(failure("is:sleeping")).toMatchObject({ kind: "invalid-state" });
    expect(failure("prop:size>3")).toMatchObject({ kind: "invalid-property" });
    expect(failure("prop:ivl~3")).toMatchObject({ kind: "invalid-operator" });
    expect(failure("prop:ivl>x")).toMatchObject({ kind: "invalid-number" });
    expect(failure("prop:ivl>-1")).toMatchObject({ kind: "invalid-number" });
    expect(failure("rated:two")).toMatchObject({ kind: "invalid-number" });
    expect(failure("rated:1:5")).toMatchObject({ kind: "invalid-answer-button" });
    expect(failure("nid:123")).toMatchObject({ kind: "invalid-id-list" });
    expect(failure("prop:ease>2")).toMatchObject({ kind: "unsupported" });
    expect(failure("dupe:1,x")).toMatchObject({ kind: "unsupported" });
  });
});
