import { describe, expect, test } from "vitest";
import { clozeNesting, clozeOrdinals, parseCloze } from "./cloze";

describe("parseCloze", () => {
  test("finds a single deletion with its offsets", () => {
    expect(parseCloze("The {{c1::sun}} rises")).toEqual([{ ordinal: 1, answer: "sun", hint: null, start: 4, end: 15 }]);
  });

  test("splits the hint at the first :: of the deletion", () => {
    expect(parseCloze("{{c2::Paris::capital::city}}")).toEqual([
      { ordinal: 2, answer: "Paris", hint: "capital::city", start: 0, end: 28 },
    ]);
  });

  test("keeps an empty answer and an empty hint", () => {
    expect(parseCloze("{{c1::::}}")).toEqual([{ ordinal: 1, answer: "", hint: "", start: 0, end: 10 }]);
  });

  test("reads the number's value, ignoring leading zeros", () => {
    expect(parseCloze("{{c007::x}}").map((d) => d.ordinal)).toEqual([7]);
  });

  test("treats number 0 as literal text", () => {
    expect(parseCloze("{{c0::x}} {{c00::y}}")).toEqual([]);
  });

  test("accepts numbers up to 2147483647, the largest card ordinal", () => {
    expect(parseCloze("{{c2147483647::x}}").map((d) => d.ordinal)).toEqual([2147483647]);
  });

  test("leaves out deletions numbered above 2147483647", () => {
    expect(parseCloze("{{c2147483648::x}} {{c99999999999999999999::y}}")).toEqual([]);
  });

  test("still pairs a }} with a deletion numbered above 2147483647", () => {
    // As in the database: the big opening takes the first }}, so c1 stays unclosed.
    expect(parseCloze("{{c1::a {{c3000000000::b}}")).toEqual([]);
  });

  test("keeps deletions around and inside one numbered above 2147483647", () => {
    expect(parseCloze("{{c1::a {{c3000000000::b {{c2::c}}}} d}}").map((d) => [d.ordinal, d.answer])).toEqual([
      [1, "a {{c3000000000::b {{c2::c}}}} d"],
      [2, "c"],
    ]);
  });

  test("accepts a long run of leading zeros before a small number", () => {
    expect(parseCloze(`{{c${"0".repeat(30)}3::x}}`).map((d) => d.ordinal)).toEqual([3]);
  });

  test("requires lower-case c, ASCII digits and a double colon", () => {
    expect(parseCloze("{{C1::a}} {{c::b}} {{c1:c}} {{c\uff11::d}} {{ c1::e}} {c1::f}")).toEqual([]);
  });

  test("returns nested deletions in order of their opening", () => {
    const text = "{{c1::a {{c2::b}} c}}";
    expect(parseCloze(text)).toEqual([
      { ordinal: 1, answer: "a {{c2::b}} c", hint: null, start: 0, end: 21 },
      { ordinal: 2, answer: "b", hint: null, start: 8, end: 17 },
    ]);
  });

  test("ignores a :: inside a nested deletion when splitting the hint", () => {
    const [outer] = parseCloze("{{c1::a {{c2::b::inner}} c::outer}}");
    expect(outer).toMatchObject({ answer: "a {{c2::b::inner}} c", hint: "outer" });
  });

  test("splits at a :: left literal by a rejected c0 opening", () => {
    const [deletion] = parseCloze("{{c1::a{{c0::b}}");
    expect(deletion).toMatchObject({ ordinal: 1, answer: "a{{c0", hint: "b" });
  });

  test("keeps a stray closing brace after }} as text", () => {
    expect(parseCloze("{{c1::a}}}")).toEqual([{ ordinal: 1, answer: "a", hint: null, start: 0, end: 9 }]);
  });

  test("treats }} with nothing open as literal text", () => {
    expect(parseCloze("}} {{c1::a}} }}")).toEqual([{ ordinal: 1, answer: "a", hint: null, start: 3, end: 12 }]);
  });

  test("treats an opening never closed as literal text", () => {
    expect(parseCloze("{{c1::a")).toEqual([]);
    expect(parseCloze("{{c1::a}")).toEqual([]);
  });

  test("keeps a closed deletion nested in an unclosed one", () => {
    expect(parseCloze("{{c1::a {{c2::b}} c")).toEqual([{ ordinal: 2, answer: "b", hint: null, start: 8, end: 17 }]);
  });

  test("closes the innermost deletion first", () => {
    expect(parseCloze("{{c1::{{c2::x}}").map((d) => d.ordinal)).toEqual([2]);
  });

  test("finds an opening right after literal braces", () => {
    expect(parseCloze("{{{c1::a}}")).toEqual([{ ordinal: 1, answer: "a", hint: null, start: 1, end: 10 }]);
  });

  test("counts offsets in UTF-16 units like String.prototype.slice", () => {
    const text = "\u{1F9E0} {{c1::x}}";
    const [deletion] = parseCloze(text);
    expect(text.slice(deletion?.start, deletion?.end)).toBe("{{c1::x}}");
  });
});

describe("clozeOrdinals", () => {
  test("lists distinct numbers ascending, nested ones included", () => {
    expect(clozeOrdinals("{{c3::a}} {{c1::b {{c2::c}}}} {{c3::d}}")).toEqual([1, 2, 3]);
  });

  test("is empty when there is no valid deletion", () => {
    expect(clozeOrdinals("{{c0::a}} {{c1::b")).toEqual([]);
  });
});

describe("clozeNesting", () => {
  test("is 0 without a deletion and 1 for deletions side by side", () => {
    expect(clozeNesting("plain {{c1::never closed")).toBe(0);
    expect(clozeNesting("{{c1::a}} {{c2::b}}")).toBe(1);
  });

  test("counts the deepest chain of deletions inside one another", () => {
    expect(clozeNesting("{{c1::a {{c2::b}} {{c3::c {{c4::d}}}}}} {{c5::e}}")).toBe(3);
  });

  test("leaves out openings that never close, around closed deletions", () => {
    expect(clozeNesting("{{c1::{{c1::{{c1::{{c2::x}}")).toBe(1);
    expect(clozeNesting("{{c9::{{c1::a {{c2::b}}}}")).toBe(2);
  });

  test("counts a deletion numbered above 2147483647, which nests like any other", () => {
    expect(clozeNesting("{{c1::a {{c3000000000::b {{c2::c}}}} d}}")).toBe(3);
  });
});

describe("worst-case texts", () => {
  // Work grows with the length of the text only, so the largest texts a note
  // can hold parse in one pass; these pin the results, a benchmark the time.
  test("parses a field full of distinct numbers", () => {
    let text = "";
    for (let n = 1; text.length < 19_990; n += 1) text += `{{c${n}::a}}`;
    const ordinals = clozeOrdinals(text);
    expect(ordinals.length).toBeGreaterThan(1500);
    expect(ordinals.at(-1)).toBe(ordinals.length);
  });

  test("parses deletions nested 3,000 deep", () => {
    const text = `${"{{c1::".repeat(3000)}x${"}}".repeat(3000)}`;
    expect(clozeNesting(text)).toBe(3000);
    expect(parseCloze(text)).toHaveLength(3000);
  });
});
