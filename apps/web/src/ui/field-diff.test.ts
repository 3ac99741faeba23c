import { describe, expect, it } from "vitest";
import { textChanges } from "./field-diff.js";

describe("a field's change as words", () => {
  it("names the words added and removed, reading the text without markup", () => {
    expect(textChanges("<b>The cell's</b> powerhouse", "The cell's <i>energy</i> powerhouse")).toEqual([
      { kind: "same", text: "The cell's " },
      { kind: "added", text: "energy " },
      { kind: "same", text: "powerhouse" },
    ]);
    expect(textChanges("Madrid is big", "Madrid is small")).toEqual([
      { kind: "same", text: "Madrid is " },
      { kind: "removed", text: "big" },
      { kind: "added", text: "small" },
    ]);
  });

  it("reads a cloze as its answer and sees no change in markup alone", () => {
    expect(textChanges("{{c1::Madrid}} is the capital", "<p>Madrid is the capital</p>")).toBeNull();
    expect(textChanges("", "New text")).toEqual([{ kind: "added", text: "New text" }]);
  });
});
