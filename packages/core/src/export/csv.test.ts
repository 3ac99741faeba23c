import { describe, expect, it } from "vitest";
import { mapColumns, suggestMapping } from "../import/csv/map";
import { parseDelimited } from "../import/csv/parse";
import { type CsvNote, writeCsv } from "./csv";

const notes: CsvNote[] = [
  { kind: "basic", fields: { front: "a, with comma", back: 'say "hi"' }, tags: ["one", "two"] },
  { kind: "basic_reversed", fields: { front: "line 1\nline 2", back: "<b>bold</b>;|x" }, tags: [] },
  { kind: "cloze", fields: { text: "The {{c1::sun}} is a {{c2::star}}", extra: "" }, tags: ["astro"] },
  { kind: "cloze", fields: { text: "{{c1::Tab}}\there", extra: "extra" }, tags: [] },
];

describe("writeCsv", () => {
  it("writes a header and one row per note", () => {
    const lines = writeCsv(notes.slice(0, 1)).split("\n");
    expect(lines).toEqual(["kind,front,back,tags", 'basic,"a, with comma","say ""hi""",one two']);
  });

  it("adds a last my_notes column only when a note carries the user's My notes, which import leaves aside", () => {
    const mine: CsvNote[] = [{ ...notes[0], myNotes: "Mine, mine" } as CsvNote, notes[1] as CsvNote];
    const text = writeCsv(mine);
    expect(text.split("\n")[0]).toBe("kind,front,back,tags,my_notes");
    expect(text.split("\n")[1]).toBe('basic,"a, with comma","say ""hi""",one two,"Mine, mine"');
    const parsed = parseDelimited(text);
    expect(mapColumns(parsed, suggestMapping(parsed)).notes).toEqual(notes.slice(0, 2));
  });

  for (const delimiter of [",", "\t", ";", "|"] as const) {
    it(`round-trips through parseDelimited and mapColumns with ${JSON.stringify(delimiter)}`, () => {
      const parsed = parseDelimited(writeCsv(notes, { delimiter }));
      expect(parsed.delimiter).toBe(delimiter);
      const { notes: read, issues } = mapColumns(parsed, suggestMapping(parsed));
      expect(issues).toEqual([]);
      expect(read).toEqual(notes);
    });
  }
});
