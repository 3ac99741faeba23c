import { describe, expect, it } from "vitest";
import { firstFieldText, noteTypeOf } from "./plain-text.js";

const vocabulary = {
  name: "Vocabulary",
  kind: "standard" as const,
  fields: ["Word", "Meaning"],
  templates: [{ name: "Recognise" }],
};
const types = new Map([["type-1", vocabulary]]);

describe("a note's first field as the browser lists it", () => {
  it("reads a basic note's front and a cloze's text as one line of plain text", () => {
    expect(firstFieldText({ kind: "basic", fields: { front: "<b>Capital</b> of\n France &amp; co", back: "" } })).toBe(
      "Capital of France & co",
    );
    expect(firstFieldText({ kind: "cloze", fields: { text: "{{c1::Madrid::capital}} is big", extra: "" } })).toBe(
      "Madrid is big",
    );
  });

  it("reads a custom note's first field in its note type's order, whatever order the object keeps", () => {
    const note = { kind: "custom" as const, note_type_id: "type-1", fields: { Meaning: "dog", Word: "<p>chien</p>" } };
    expect(firstFieldText(note, types)).toBe("chien");
    expect(noteTypeOf(note, types)?.name).toBe("Vocabulary");
    // A type the deck's list does not hold (yet): nothing to show rather than a wrong field.
    expect(firstFieldText({ ...note, note_type_id: "type-2" }, types)).toBe("");
    expect(noteTypeOf({ kind: "basic", fields: {} }, types)).toBeUndefined();
  });

  it("reads an image occlusion note's header, else its image's file name", () => {
    const fields = {
      image: '<img src="heart&amp;lungs.png">',
      occlusions: "",
      header: "",
      back_extra: "",
      comments: "",
    };
    expect(firstFieldText({ kind: "image_occlusion", fields: { ...fields, header: "<p>The heart</p>" } })).toBe(
      "The heart",
    );
    expect(firstFieldText({ kind: "image_occlusion", fields })).toBe("heart&lungs.png");
  });
});
