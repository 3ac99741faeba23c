import { describe, expect, it } from "vitest";
import { builtInNoteTypes, validateNoteType } from "./note-types";
import type { NoteType } from "./notes";

const valid: NoteType = {
  name: "Vocabulary",
  kind: "standard",
  fields: ["Word", "Meaning"],
  templates: [{ name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" }],
  css: ".card { color: black; }",
};

function messages(input: unknown): string[] {
  const result = validateNoteType(input);
  return result.ok ? [] : result.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("builtInNoteTypes", () => {
  it("are Anki's stock types, and valid", () => {
    expect(builtInNoteTypes.basic.templates[0]?.back).toBe("{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}");
    expect(builtInNoteTypes.cloze.css).toContain(".nightMode .cloze");
    for (const type of Object.values(builtInNoteTypes)) expect(messages(type)).toEqual([]);
  });
});

describe("validateNoteType", () => {
  it("accepts a well-formed type", () => {
    expect(validateNoteType(valid)).toEqual({ ok: true, noteType: valid });
  });

  it("refuses Anki's forbidden field names", () => {
    for (const name of ["a:b", "{x", "x}", 'say "hi"', "#x", "/x", "^x", " x", ""]) {
      expect(messages({ ...valid, fields: [name, "Meaning"] }).length, name).toBeGreaterThan(0);
    }
    expect(messages({ ...valid, fields: ["Word", "Meaning", "word"] })).toEqual([
      "fields: Field names must differ (ignoring case).",
    ]);
  });

  it("bounds names, counts and lengths", () => {
    expect(messages({ ...valid, name: "x".repeat(101) })).toHaveLength(1);
    expect(messages({ ...valid, name: " " })).toHaveLength(1);
    expect(messages({ ...valid, fields: [] }).length).toBeGreaterThan(0);
    expect(messages({ ...valid, templates: [] }).length).toBeGreaterThan(0);
    expect(messages({ ...valid, css: "x".repeat(100_001) })).toHaveLength(1);
    const long = { ...valid.templates[0], back: "x".repeat(100_001) };
    expect(messages({ ...valid, templates: [long] })).toEqual([
      "templates.0.back: Templates can be at most 100000 characters.",
    ]);
  });

  it("refuses a front without a field, an unknown field and broken sections", () => {
    const t = (front: string, back = "{{Meaning}}") => ({ ...valid, templates: [{ name: "A", front, back }] });
    expect(messages(t("just text"))).toEqual(["templates.0.front: The front must show at least one field."]);
    expect(messages(t("{{Nope}}"))).toEqual(["templates.0.front: There is no field called Nope."]);
    expect(messages(t("{{#Word}}x"))).toEqual(["templates.0.front: Close the section with {{/Word}}."]);
    expect(messages(t("{{Word}}", "{{/Word}}"))).toEqual([
      "templates.0.back: {{/Word}} closes a section that is not open.",
    ]);
    expect(messages(t("{{Deck}} {{Tags}}"))).toEqual([]);
  });

  it("gives a cloze type exactly one template that uses the cloze filter", () => {
    const cloze = builtInNoteTypes.cloze;
    expect(messages({ ...cloze, templates: [...cloze.templates, ...cloze.templates] })).toContain(
      "templates: A cloze note type has exactly one card template.",
    );
    expect(messages({ ...cloze, templates: [{ name: "C", front: "{{Text}}", back: "{{cloze:Text}}" }] })).toEqual([
      "templates.0.front: A cloze template shows a field with the cloze filter, like {{cloze:Text}}.",
    ]);
  });
});
