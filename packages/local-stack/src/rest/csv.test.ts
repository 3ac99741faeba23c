import { describe, expect, it } from "vitest";
import { parseCsv, toCsv } from "./csv.js";

describe("csv", () => {
  it("reads quoted fields, doubled quotes, CRLF and NULL", () => {
    expect(parseCsv('a,b\r\n"x, ""y""",NULL\r\n"NULL",\n')).toEqual([
      { a: 'x, "y"', b: null },
      { a: "NULL", b: "" },
    ]);
  });

  it("rejects ragged rows and unterminated quotes", () => {
    expect(() => parseCsv("a,b\n1\n")).toThrow(/Invalid CSV/);
    expect(() => parseCsv('a\n"1\n')).toThrow(/Invalid CSV/);
  });

  it("writes a header row, quoting where needed and JSON for structures", () => {
    expect(toCsv([{ a: "x,y", b: null, c: [1] }])).toBe('a,b,c\n"x,y",,[1]');
  });
});
