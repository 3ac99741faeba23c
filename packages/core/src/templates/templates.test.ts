import { describe, expect, it } from "vitest";
import { builtInNoteTypes } from "../note-types";
import type { NoteType } from "../notes";
import { cardOrdinals } from "../notes";
import { renderCard } from "../render";
import { fieldIsEmpty, nonEmptyNames, parseTemplate, rendersWithFields, renderTemplate, templateOrdinals } from ".";

const renders = (template: string, nonEmpty: string[]) =>
  rendersWithFields(parseTemplate(template).nodes, new Set(nonEmpty));

describe("parseTemplate", () => {
  it("reads fields, sections, filters and comments as Anki does", () => {
    expect(parseTemplate("foo {{bar}} {{#baz}} quux {{/baz}}").nodes).toEqual([
      { type: "text", text: "foo " },
      { type: "replacement", key: "bar", filters: [] },
      { type: "text", text: " " },
      { type: "section", key: "baz", negated: false, children: [{ type: "text", text: " quux " }] },
    ]);
    expect(parseTemplate("{{text:hint:F}}").nodes).toEqual([
      { type: "replacement", key: "F", filters: ["hint", "text"] },
    ]);
    expect(parseTemplate("<!--{{#mis}}{{/matched}}-->").error).toBeNull();
    expect(parseTemplate("{{ tag }}").nodes).toEqual([{ type: "replacement", key: "tag", filters: [] }]);
    expect(parseTemplate("text }} more").nodes).toEqual([{ type: "text", text: "text }} more" }]);
    expect(parseTemplate("{{!a comment}}x").nodes).toEqual([
      { type: "comment", text: "!a comment" },
      { type: "text", text: "x" },
    ]);
  });

  it("reports unbalanced sections as Anki refuses them", () => {
    expect(parseTemplate("{{#mis}}{{/matched}}").error).toEqual({
      code: "section-not-open",
      key: "matched",
      open: "mis",
    });
    expect(parseTemplate("{{/matched}}").error).toEqual({ code: "section-not-open", key: "matched", open: null });
    expect(parseTemplate("{{#mis}}").error).toEqual({ code: "section-not-closed", key: "mis" });
    expect(parseTemplate("{{#mis}}<!--{{/mis}}-->").error).toEqual({ code: "section-not-closed", key: "mis" });
    expect(parseTemplate("<!--{{foo}}").error).toBeNull();
  });
});

describe("fieldIsEmpty (Anki's field_is_empty)", () => {
  it("counts only white space, <br> and <div> tags as empty", () => {
    expect(fieldIsEmpty("")).toBe(true);
    expect(fieldIsEmpty(" ")).toBe(true);
    expect(fieldIsEmpty("x")).toBe(false);
    expect(fieldIsEmpty("<BR>")).toBe(true);
    expect(fieldIsEmpty("<div />")).toBe(true);
    expect(fieldIsEmpty(" <div> <br> </div>\n")).toBe(true);
    expect(fieldIsEmpty(" <div>x</div>\n")).toBe(false);
    expect(fieldIsEmpty("&nbsp;")).toBe(false);
  });
});

describe("rendersWithFields (Anki's nonempty cases)", () => {
  it("follows template.rs", () => {
    expect(renders("{{2}}{{1}}", ["1", "3"])).toBe(true);
    expect(renders("{{2}}", ["1", "3"])).toBe(false);
    expect(renders("{{2}}{{4}}", ["1", "3"])).toBe(false);
    expect(renders("{{#3}}{{^2}}{{1}}{{/2}}{{/3}}", ["1", "3"])).toBe(true);
    expect(renders("{{^1}}{{3}}{{/1}}", ["1", "3"])).toBe(false);
  });

  it("counts a field under any filter, and never text alone", () => {
    expect(renders("{{cloze:a}}", ["a"])).toBe(true);
    expect(renders("{{type:a}}", ["a"])).toBe(true);
    expect(renders("static text", ["a"])).toBe(false);
    expect(renders("<!--{{a}}-->", ["a"])).toBe(false);
  });
});

const optionalReverse: NoteType = {
  name: "Basic (optional reversed card)",
  kind: "standard",
  fields: ["Front", "Back", "Add Reverse"],
  templates: [
    { name: "Card 1", front: "{{Front}}", back: "{{FrontSide}}<hr id=answer>{{Back}}" },
    { name: "Card 2", front: "{{#Add Reverse}}{{Back}}{{/Add Reverse}}", back: "{{FrontSide}}<hr id=answer>{{Front}}" },
  ],
  css: "",
};

describe("templateOrdinals (Anki's card generation)", () => {
  it("makes a card per template whose front has content", () => {
    expect(templateOrdinals(optionalReverse, { Front: "a", Back: "b", "Add Reverse": "" })).toEqual([1]);
    expect(templateOrdinals(optionalReverse, { Front: "a", Back: "b", "Add Reverse": "y" })).toEqual([1, 2]);
    expect(templateOrdinals(optionalReverse, { Front: "", Back: "b", "Add Reverse": "y" })).toEqual([2]);
  });

  it("gives card 1 when no front has content", () => {
    expect(templateOrdinals(optionalReverse, { Front: "", Back: "", "Add Reverse": "" })).toEqual([1]);
  });

  it("counts special fields as filled, Tags only with tags", () => {
    const type: NoteType = {
      ...optionalReverse,
      templates: [
        { name: "A", front: "{{Tags}}", back: "" },
        { name: "B", front: "{{Deck}}", back: "" },
        { name: "C", front: "{{FrontSide}}{{Front}}", back: "" },
      ],
    };
    const fields = { Front: "", Back: "", "Add Reverse": "" };
    expect(templateOrdinals(type, fields)).toEqual([2]);
    expect(templateOrdinals(type, fields, ["t"])).toEqual([1, 2]);
    // A note type's own field named like a special one is just that field.
    expect(templateOrdinals({ ...type, fields: ["Front", "Deck"] }, { Front: "", Deck: "" })).toEqual([1]);
  });

  it("makes no card from a template that does not parse", () => {
    const type: NoteType = {
      ...optionalReverse,
      templates: [
        { name: "A", front: "{{#Front}}{{Front}}", back: "" },
        { name: "B", front: "{{Back}}", back: "" },
      ],
    };
    expect(templateOrdinals(type, { Front: "a", Back: "b", "Add Reverse": "" })).toEqual([2]);
  });

  it("numbers a cloze type's cards by the deletions of the fields its front shows with cloze:", () => {
    const type: NoteType = {
      name: "Two cloze fields",
      kind: "cloze",
      fields: ["Text", "More", "Notes"],
      templates: [{ name: "Cloze", front: "{{cloze:Text}}{{#More}}{{cloze:More}}{{/More}}", back: "" }],
      css: "",
    };
    expect(templateOrdinals(type, { Text: "{{c2::a}}", More: "{{c1::b}} {{c2::c}}", Notes: "{{c7::n}}" })).toEqual([
      1, 2,
    ]);
    expect(templateOrdinals(type, { Text: "none", More: "", Notes: "{{c3::n}}" })).toEqual([1]);
  });

  it("is what cardOrdinals gives a custom note", () => {
    expect(
      cardOrdinals({
        kind: "custom",
        noteType: optionalReverse,
        fields: { Front: "a", Back: "b", "Add Reverse": "1" },
      }),
    ).toEqual([1, 2]);
  });
});

describe("nonEmptyNames", () => {
  it("leaves FrontSide out", () => {
    expect(nonEmptyNames(["F"], { F: "x" }, []).has("FrontSide")).toBe(false);
  });
});

describe("renderTemplate", () => {
  const fields = { Word: "abase", Definition: "lower", Empty: "", Cloze: "{{c1::Paris}} and {{c2::Rome::city}}" };
  const front = (template: string, ord = 0) => renderTemplate(template, { fields, ord, side: "front" });

  it("replaces fields, shows sections by content and drops comments", () => {
    expect(front("<b>{{Word}}</b>{{#Empty}}E{{/Empty}}{{^Empty}}none{{/Empty}}{{!x}}")).toBe("<b>abase</b>none");
  });

  it("marks type-in boxes for the study screen", () => {
    expect(front("{{type:Definition}}")).toBe('<engram-type-answer data-field="Definition"></engram-type-answer>');
    expect(renderTemplate("{{type:cloze:Cloze}}", { fields, ord: 0, side: "back" })).toBe(
      '<engram-type-answer data-field="cloze:Cloze" data-reveal></engram-type-answer>',
    );
    expect(renderTemplate("{{type:Word}}", { fields, ord: 0, side: "front", typeAnswer: "drop" })).toBe("");
  });

  it("applies cloze on any field, and filters right to left", () => {
    expect(front("{{cloze:Cloze}}", 1)).toBe('Paris and <span class="cloze">[city]</span>');
    expect(renderTemplate("{{cloze:Cloze}}", { fields, ord: 0, side: "back" })).toBe(
      '<span class="cloze">Paris</span> and Rome',
    );
    expect(renderTemplate("{{text:hint:W}}", { fields: { W: "<b>x</b>" }, ord: 0, side: "front" })).toBe("Wx");
    expect(front("{{hint:Empty}}")).toBe("");
    expect(front("{{furigana:Word}}")).toBe("abase");
  });

  it("marks type:nc: boxes to compare without combining marks", () => {
    expect(renderTemplate("{{type:nc:Word}}", { fields, ord: 0, side: "back" })).toBe(
      '<engram-type-answer data-field="Word" data-reveal data-nc></engram-type-answer>',
    );
    expect(front("{{type:text:Word}}")).toBe('<engram-type-answer data-field="Word"></engram-type-answer>');
  });

  it("shows a hint behind a disclosure named after the field, as Anki's hint link", () => {
    expect(front("{{hint:Definition}}")).toBe(
      '<details><summary class="hint">Definition</summary><div class="hint">lower</div></details>',
    );
    expect(renderTemplate("{{hint:<F>}}", { fields: { "<F>": "x" }, ord: 0, side: "front" })).toContain(
      '<summary class="hint">&lt;F&gt;</summary>',
    );
  });

  it("reads Japanese readings as Anki's furigana, kana and kanji filters (Anki's own cases)", () => {
    const japanese = { J: "test first[second] third[fourth]", R: "first[second]", S: "a[sound:x.mp3]" };
    const show = (template: string) => renderTemplate(template, { fields: japanese, ord: 0, side: "front" });
    expect(show("{{kana:J}}")).toBe("testsecondfourth");
    expect(show("{{kanji:J}}")).toBe("testfirstthird");
    expect(show("{{furigana:R}}")).toBe("<ruby><rb>first</rb><rt>second</rt></ruby>");
    expect(show("{{furigana:S}}")).toBe("a[sound:x.mp3]");
    expect(renderTemplate("{{furigana:F}}", { fields: { F: "日本[にほん]&nbsp;語[ご]" }, ord: 0, side: "front" })).toBe(
      "<ruby><rb>日本</rb><rt>にほん</rt></ruby><ruby><rb>語</rb><rt>ご</rt></ruby>",
    );
  });

  it("shows only the card's deletions with cloze-only (Anki's own cases)", () => {
    const only = (text: string, ord: number, side: "front" | "back") =>
      renderTemplate("{{cloze-only:T}}", { fields: { T: text }, ord: ord - 1, side });
    expect(only("foo", 1, "front")).toBe("");
    expect(only("foo {{c1::bar}}", 1, "front")).toBe("...");
    expect(only("foo {{c1::bar::baz}}", 1, "front")).toBe("baz");
    expect(only("foo {{c1::bar}}", 1, "back")).toBe("bar");
    expect(only("foo {{c1::bar}}", 2, "back")).toBe("");
    expect(only("{{c1::foo}} {{c1::bar}}", 1, "back")).toBe("foo, bar");
  });

  it("shows a field with no deletion for the card as nothing under cloze:", () => {
    expect(
      renderTemplate("{{cloze:A}}|{{cloze:B}}", { fields: { A: "{{c1::a}}", B: "{{c2::b}}" }, ord: 1, side: "front" }),
    ).toBe('|<span class="cloze">[...]</span>');
  });

  it("speaks nothing for tts, and ignores empty filter names", () => {
    expect(front("{{tts en_US:Word}}")).toBe("");
    expect(front("{{tts ja_JP voices=Apple_Otoya speed=1.2:Word}}")).toBe("");
    expect(front("{{text::Word}}")).toBe("abase");
  });
});

describe("renderCard for custom notes", () => {
  it("renders the answer side whole, with FrontSide as the rendered front", () => {
    const note = {
      kind: "custom" as const,
      noteType: optionalReverse,
      fields: { Front: "a", Back: "b", "Add Reverse": "1" },
    };
    expect(renderCard(note, 2)).toEqual({ front: "b", back: 'b<hr id="answer" />a' });
  });

  it("sanitises both faces", () => {
    const note = {
      kind: "custom" as const,
      noteType: optionalReverse,
      fields: { Front: '<img src=x onerror="alert(1)">q', Back: "b", "Add Reverse": "" },
    };
    const faces = renderCard(note, 1);
    expect(faces.front).not.toContain("onerror");
    expect(faces.back).not.toContain("onerror");
  });

  it("renders built-in cloze through its stock template", () => {
    const note = {
      kind: "custom" as const,
      noteType: builtInNoteTypes.cloze,
      fields: { Text: "{{c1::x}} y", "Back Extra": "e" },
    };
    expect(renderCard(note, 1).front).toBe('<span class="cloze">[...]</span> y');
    expect(renderCard(note, 1).back).toBe('<span class="cloze">x</span> y<br />\ne');
  });

  it("shows the card's deck, subdeck, flag and id as Anki's special fields", () => {
    const type: NoteType = {
      name: "Special",
      kind: "standard",
      fields: ["Front"],
      templates: [
        {
          name: "Forward",
          front: "{{Deck}}|{{Subdeck}}|{{CardFlag}}|{{CardID}}|{{Card}}|{{Type}}|{{Tags}}|{{Front}}",
          back: "",
        },
      ],
      css: "",
    };
    const note = { kind: "custom" as const, noteType: type, fields: { Front: "f" }, tags: ["a", "b"] };
    const card = { deck: "Old Decks::Board Review 2023", cardId: "c-1", flag: 3 };
    expect(renderCard(note, 1, { card }).front).toBe(
      "Old Decks::Board Review 2023|Board Review 2023|flag3|c-1|Forward|Special|a b|f",
    );
    expect(renderCard(note, 1).front).toBe("||flag0||Forward|Special|a b|f");
    // A field of the note type's own that is named like a special one wins.
    const own = { ...type, fields: ["Front", "Deck"] };
    expect(renderCard({ ...note, noteType: own, fields: { Front: "f", Deck: "mine" } }, 1, { card }).front).toMatch(
      /^mine\|Board Review 2023\|/,
    );
  });

  it("refuses a card the note does not have", () => {
    const note = {
      kind: "custom" as const,
      noteType: optionalReverse,
      fields: { Front: "a", Back: "b", "Add Reverse": "" },
    };
    expect(() => renderCard(note, 2)).toThrow(RangeError);
  });
});
