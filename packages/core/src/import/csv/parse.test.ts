import { describe, expect, it } from "vitest";
import { CsvImportError, parseDelimited } from "./parse";

function errorOf(run: () => unknown): CsvImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof CsvImportError) return error;
    throw error;
  }
  throw new Error("expected a CsvImportError");
}

describe("parseDelimited", () => {
  it("detects a comma", () => {
    const parsed = parseDelimited("hola,hello\nadiós,goodbye\n");
    expect(parsed.delimiter).toBe(",");
    expect(parsed.rows).toEqual([
      ["hola", "hello"],
      ["adiós", "goodbye"],
    ]);
  });

  it("detects a tab", () => {
    const parsed = parseDelimited("a, b\tc\nd, e\tf\n");
    expect(parsed.delimiter).toBe("\t");
    expect(parsed.rows).toEqual([
      ["a, b", "c"],
      ["d, e", "f"],
    ]);
  });

  it("detects a semicolon", () => {
    const parsed = parseDelimited("1,5;one and a half\n2,5;two and a half\n");
    expect(parsed.delimiter).toBe(";");
    expect(parsed.rows[0]).toEqual(["1,5", "one and a half"]);
  });

  it("prefers the delimiter that gives every row the same width", () => {
    const parsed = parseDelimited("a,b|c\nd|e\nf|g,h,i\n");
    expect(parsed.delimiter).toBe("|");
    expect(parsed.rows).toHaveLength(3);
  });

  it("uses the delimiter it is given", () => {
    expect(parseDelimited("a;b,c\n", { delimiter: ",", header: false }).rows).toEqual([["a;b", "c"]]);
  });

  it("takes the first row as a header when told to", () => {
    const parsed = parseDelimited("Q,A\none,two\n", { header: true });
    expect(parsed.header).toEqual(["Q", "A"]);
    expect(parsed.rows).toEqual([["one", "two"]]);
  });

  it("keeps the first row as data when told there is no header", () => {
    const parsed = parseDelimited("front,back\none,two\n", { header: false });
    expect(parsed.header).toBeNull();
    expect(parsed.rows).toHaveLength(2);
  });

  it("finds a header of known column names whatever their case", () => {
    expect(parseDelimited("Front,BACK,Tags\none,two,x\n").header).toEqual(["Front", "BACK", "Tags"]);
  });

  it("finds a header of names above columns of another kind", () => {
    const parsed = parseDelimited("Word,Page\ncat,12\ndog,15\n");
    expect(parsed.header).toEqual(["Word", "Page"]);
  });

  it("sees no header when the first row is like the rest", () => {
    expect(parseDelimited("cat,gato\ndog,perro\n").header).toBeNull();
  });

  it("reads quoted fields holding delimiters, newlines and quotes", () => {
    const parsed = parseDelimited('front,back\n"a, b","line 1\nline 2"\n"say ""hi""",x\n');
    expect(parsed.rows).toEqual([
      ["a, b", "line 1\nline 2"],
      ['say "hi"', "x"],
    ]);
  });

  it("strips a byte order mark", () => {
    const parsed = parseDelimited("\uFEFFfront,back\na,b\n");
    expect(parsed.header).toEqual(["front", "back"]);
  });

  it("honours Anki's text export directives", () => {
    const text = "#separator:tab\n#html:true\n#tags column:3\nfront;1\tback,2\ttag1 tag2\n";
    const parsed = parseDelimited(text);
    expect(parsed.delimiter).toBe("\t");
    expect(parsed.header).toBeNull();
    expect(parsed.anki).toEqual({ separator: "\t", html: true, tagsColumn: 2 });
    expect(parsed.rows).toEqual([["front;1", "back,2", "tag1 tag2"]]);
  });

  it("refuses ragged rows and names them", () => {
    const error = errorOf(() => parseDelimited("front,back\na,b\nc\nd,e\nf,g,h\n"));
    expect(error.code).toBe("corrupt-file");
    expect(error.rows).toEqual([3, 5]);
  });

  it("refuses rows that differ from the majority when there is no header", () => {
    const error = errorOf(() => parseDelimited("a,b\nc,d\ne,f,g\nh,i\n", { header: false }));
    expect(error.rows).toEqual([3]);
  });

  it("refuses a quote that is never closed", () => {
    const error = errorOf(() => parseDelimited('front,back\na,b\n"c,d\ne,f\n'));
    expect(error.code).toBe("corrupt-file");
    expect(error.rows.length).toBeGreaterThan(0);
  });

  it("reads a 10,000-row file", () => {
    const lines = ["front,back,tags"];
    for (let i = 0; i < 10_000; i += 1) lines.push(`question ${i},"answer, ${i}",t${i % 7}`);
    const parsed = parseDelimited(lines.join("\r\n"));
    expect(parsed.rows).toHaveLength(10_000);
    expect(parsed.rows[9_999]).toEqual(["question 9999", "answer, 9999", "t3"]);
  });
});
