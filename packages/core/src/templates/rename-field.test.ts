import { describe, expect, it } from "vitest";
import { builtInNoteTypes } from "../note-types";
import { renameFieldInTemplates, renameFieldsInTemplate } from "./rename-field";
import { renderTemplate } from "./render";

const rename = (template: string, renames: Record<string, string | null>) =>
  renameFieldsInTemplate(template, new Map(Object.entries(renames)));

describe("renaming fields in templates", () => {
  it("renames every kind of tag that names the field, keeping the rest as written", () => {
    expect(
      rename("<b>{{ Word }}</b>{{#Word}}{{text:hint:Word}}{{/Word}}{{^Word}}-{{/ Word}}{{type:Word}}{{Wordy}}", {
        Word: "Term",
      }),
    ).toBe("<b>{{ Term }}</b>{{#Term}}{{text:hint:Term}}{{/Term}}{{^Term}}-{{/ Term}}{{type:Term}}{{Wordy}}");
    expect(rename("{{cloze:Text}}<br>{{type:cloze:Text}}", { Text: "Body" })).toBe(
      "{{cloze:Body}}<br>{{type:cloze:Body}}",
    );
  });

  it("swaps two names at once, and leaves comments and special fields alone", () => {
    expect(rename("{{A}}/{{B}}<!--{{A}}-->{{FrontSide}}", { A: "B", B: "A" })).toBe(
      "{{B}}/{{A}}<!--{{A}}-->{{FrontSide}}",
    );
  });

  it("drops a removed field's replacements and opens its sections, as Anki does", () => {
    expect(rename("{{Front}}{{#Extra}}<i>{{Extra}}</i>{{/Extra}}{{^Extra}}none{{/Extra}}", { Extra: null })).toBe(
      "{{Front}}<i></i>none",
    );
  });

  it("leaves text that is no tag as it is", () => {
    expect(rename("{{Word", { Word: "Term" })).toBe("{{Word");
    expect(rename("Word }} {{!Word}}", { Word: "Term" })).toBe("Word }} {{!Word}}");
  });

  it("renders a renamed note type's cards as before", () => {
    const basic = builtInNoteTypes.basic;
    const templates = renameFieldInTemplates(basic.templates, new Map([["Front", "Question"]]));
    const [card] = templates;
    expect(card?.front).toBe("{{Question}}");
    const side = { ord: 0, side: "front" as const };
    expect(renderTemplate(card?.front ?? "", { ...side, fields: { Question: "¿Qué?", Back: "What?" } })).toBe(
      renderTemplate(basic.templates[0]?.front ?? "", { ...side, fields: { Front: "¿Qué?", Back: "What?" } }),
    );
  });
});
