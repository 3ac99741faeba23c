import { describe, expect, it } from "vitest";
import {
  addedField,
  addedTemplate,
  changesFields,
  controlName,
  draftOf,
  followFieldName,
  mapsOf,
  type NoteTypeDraft,
  noteTypeOf,
  previewFields,
} from "./note-type-draft.js";

const vocabulary = {
  name: "Vocabulary",
  kind: "standard" as const,
  fields: ["Word", "Meaning", "Example"],
  templates: [{ name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" }],
  css: ".card { color: black }",
};

describe("a note type being edited", () => {
  it("gives back the stored type unchanged, and knows when its fields change", () => {
    const draft = draftOf(vocabulary);
    expect(noteTypeOf(draft, "standard")).toEqual(vocabulary);
    expect(changesFields(draft, vocabulary)).toBe(false);
    const moved = {
      ...draft,
      fields: [draft.fields[1], draft.fields[0], draft.fields[2]].filter((f) => f !== undefined),
    };
    expect(noteTypeOf(moved, "standard").fields).toEqual(["Meaning", "Word", "Example"]);
    expect(changesFields(moved, vocabulary)).toBe(true);
    expect(changesFields({ ...draft, fields: [...draft.fields, addedField("Gender")] }, vocabulary)).toBe(true);
  });

  it("previews a real note's values under their fields, brackets a field's name where it has none", () => {
    const draft = draftOf(vocabulary);
    const note = { Word: "chien", Meaning: "", Example: "Le chien dort." };
    const renamed = {
      ...draft,
      fields: draft.fields.map((f) => (f.name === "Example" ? { ...f, name: "Sentence" } : f)),
    };
    expect(previewFields({ ...renamed, fields: [...renamed.fields, addedField("Gender")] }, note)).toEqual({
      Word: "chien",
      Meaning: "(Meaning)",
      Sentence: "Le chien dort.",
      Gender: "(Gender)",
    });
    expect(previewFields(draft)).toEqual({ Word: "(Word)", Meaning: "(Meaning)", Example: "(Example)" });
  });

  it("places a rule's message on the control its path names, or nowhere but the summary", () => {
    const draft = draftOf(vocabulary);
    expect(controlName("fields.1", draft)).toBe(draft.fields[1]?.key);
    expect(controlName("fields", draft)).toBe("fields");
    expect(controlName("templates.0.front", draft)).toBe("template-0-front");
    expect(controlName("templates.0.name", draft)).toBe("template-0-name");
    expect(controlName("name", draft)).toBe("name");
    expect(controlName("css", draft)).toBe("css");
    expect(controlName("templates", draft)).toBe("");
    expect(controlName("kind", draft)).toBe("");
  });

  it("says where each field and template came from: its stored index, or null for a new one", () => {
    const draft = draftOf({
      ...vocabulary,
      templates: [...vocabulary.templates, { name: "B", front: "{{Meaning}}", back: "" }],
    });
    const [word, meaning] = draft.fields;
    const [recognise, b] = draft.templates;
    if (!word || !meaning || !recognise || !b) throw new Error("the draft has the stored fields and templates");
    const edited: NoteTypeDraft = {
      ...draft,
      fields: [meaning, addedField("Gender"), { ...word, name: "Term" }],
      templates: [b, addedTemplate(recognise, draft.templates)],
    };
    expect(mapsOf(edited, vocabulary)).toEqual({ fieldMap: [1, null, 0], templateMap: [1, null] });
    expect(edited.templates[1]).toMatchObject({ name: "Card 3", front: "{{Word}}", stored: null });
  });

  it("has the templates follow a renamed or removed field, unless the new name is blank or taken", () => {
    const draft = draftOf(vocabulary);
    const renamed = { ...draft, fields: draft.fields.map((f) => (f.name === "Word" ? { ...f, name: "Term" } : f)) };
    expect(followFieldName(renamed, "Word", "Term")[0]?.front).toBe("{{Term}}");
    expect(followFieldName(renamed, "Word", " ")).toBe(renamed.templates);
    const taken = { ...draft, fields: draft.fields.map((f) => (f.name === "Word" ? { ...f, name: "Meaning" } : f)) };
    expect(followFieldName(taken, "Word", "Meaning")).toBe(taken.templates);
    expect(followFieldName(draft, "Meaning", null)[0]?.back).toBe("{{FrontSide}}<hr id=answer>");
  });
});
