import { describe, expect, it } from "vitest";
import { mapColumns, suggestMapping } from "./map";
import { parseDelimited } from "./parse";

describe("mapColumns", () => {
  it("makes notes of one fixed kind with split tags", () => {
    const parsed = parseDelimited("front,back,tags\nhola,hello,es  greeting\n");
    const { notes, issues } = mapColumns(parsed, { front: 0, back: 1, tags: 2, kind: "basic_reversed" });
    expect(issues).toEqual([]);
    expect(notes).toEqual([
      { kind: "basic_reversed", fields: { front: "hola", back: "hello" }, tags: ["es", "greeting"] },
    ]);
  });

  it("reads the kind from a column", () => {
    const parsed = parseDelimited(
      "kind,front,back\nbasic,a,b\nreversed,c,d\ncloze,{{c1::e}},f\ntype_in,g,h\nBasic (type in the answer),i,j\n",
    );
    const { notes, issues } = mapColumns(parsed, { kind: 0, front: 1, back: 2 });
    expect(issues).toEqual([]);
    expect(notes.map((note) => note.kind)).toEqual(["basic", "basic_reversed", "cloze", "type_in", "type_in"]);
    expect(notes[2]?.fields).toEqual({ text: "{{c1::e}}", extra: "f" });
  });

  it("makes a cloze note of text with a cloze deletion when no kind is given", () => {
    const parsed = parseDelimited("front,back\nThe {{c1::sun}} is a star,astronomy\nsun,sol\n");
    const { notes } = mapColumns(parsed, { front: 0, back: 1 });
    expect(notes[0]).toEqual({
      kind: "cloze",
      fields: { text: "The {{c1::sun}} is a star", extra: "astronomy" },
      tags: [],
    });
    expect(notes[1]?.kind).toBe("basic");
  });

  it("reports invalid notes with their row number and rule", () => {
    const parsed = parseDelimited("front,back,kind\na,b,basic\n,empty front,basic\nno cloze here,x,cloze\nq,a,poem\n");
    const { notes, issues } = mapColumns(parsed, { front: 0, back: 1, kind: 2 });
    expect(notes).toHaveLength(1);
    expect(issues.map(({ row, rule }) => ({ row, rule }))).toEqual([
      { row: 3, rule: "fields.front" },
      { row: 4, rule: "fields.text" },
      { row: 5, rule: "kind" },
    ]);
  });

  it("escapes text and keeps line breaks when Anki says the file is not HTML", () => {
    const parsed = parseDelimited('#separator:comma\n#html:false\na < b,"yes\nno"\n');
    expect(mapColumns(parsed, { front: 0, back: 1 }).notes[0]?.fields).toEqual({
      front: "a &lt; b",
      back: "yes<br>no",
    });
  });

  it("reads Anki's note type column and file-wide tags", () => {
    const text = "#separator:tab\n#notetype column:1\n#tags:shared\nBasic\ta\tb\nCloze\t{{c1::c}}\td\n";
    const parsed = parseDelimited(text);
    const mapping = suggestMapping(parsed);
    expect(mapping).toEqual({ kind: 0, front: 1, back: 2 });
    expect(mapColumns(parsed, mapping).notes).toEqual([
      { kind: "basic", fields: { front: "a", back: "b" }, tags: ["shared"] },
      { kind: "cloze", fields: { text: "{{c1::c}}", extra: "d" }, tags: ["shared"] },
    ]);
  });
});

describe("suggestMapping", () => {
  it("follows header names", () => {
    const parsed = parseDelimited("Tags,Question,Answer\nx,a,b\n");
    expect(suggestMapping(parsed)).toEqual({ tags: 0, front: 1, back: 2 });
  });

  it("follows Anki's declared tags column", () => {
    const parsed = parseDelimited("#separator:tab\n#tags column:1\nt1\ta\tb\n");
    expect(suggestMapping(parsed)).toEqual({ tags: 0, front: 1, back: 2 });
  });

  it("takes the first two columns without a header", () => {
    expect(suggestMapping(parseDelimited("a,b,c\nd,e,f\n"))).toEqual({ front: 0, back: 1 });
  });

  it("puts a column of cloze deletions first", () => {
    expect(suggestMapping(parseDelimited("x,{{c1::a}} b,more\ny,{{c1::c}} d,more\n"))).toEqual({ front: 1, back: 2 });
  });
});
