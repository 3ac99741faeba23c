import { describe, expect, it } from "vitest";
import { isFieldEmpty, renderTemplate } from "./template";

const fields = {
  Word: "abase",
  Definition: "lower",
  Empty: "",
  Blank: " <br> ",
  Cloze: "{{c1::Paris}} and {{c2::Rome::city}}",
};
const front = (template: string, ord = 0) => renderTemplate(template, { fields, ord, side: "front" });

describe("renderTemplate", () => {
  it("replaces a field by its value", () => {
    expect(front("<b>{{Word}}</b>")).toBe("<b>abase</b>");
  });

  it("allows spaces inside the braces", () => {
    expect(front("{{ Word }}")).toBe("abase");
  });

  it("renders an unknown field as nothing", () => {
    expect(front("[{{Missing}}]")).toBe("[]");
  });

  it("shows a section only when its field has content", () => {
    expect(front("{{#Definition}}D: {{Definition}}{{/Definition}}{{#Empty}}E{{/Empty}}")).toBe("D: lower");
  });

  it("treats a field of whitespace and <br> as empty in sections", () => {
    expect(front("{{#Blank}}shown{{/Blank}}{{^Blank}}hidden{{/Blank}}")).toBe("hidden");
  });

  it("shows an inverted section only when its field is empty", () => {
    expect(front("{{^Empty}}none{{/Empty}}{{^Word}}x{{/Word}}")).toBe("none");
  });

  it("nests sections", () => {
    expect(front("{{#Word}}{{#Definition}}both{{/Definition}}{{/Word}}")).toBe("both");
  });

  it("puts FrontSide where the back asks for it", () => {
    const back = renderTemplate("{{FrontSide}}<hr id=answer>{{Definition}}", {
      fields,
      ord: 0,
      side: "back",
      frontSide: "F",
    });
    expect(back).toBe("F<hr id=answer>lower");
  });

  it("drops type-in-the-answer boxes", () => {
    expect(front("{{Word}}{{type:Definition}}")).toBe("abase");
  });

  it("strips HTML with the text filter", () => {
    expect(renderTemplate("{{text:Word}}", { fields: { Word: "<i>ab</i>ase" }, ord: 0, side: "front" })).toBe("abase");
  });

  it("folds a hint field into a details element, and nothing when empty", () => {
    expect(front("{{hint:Definition}}")).toBe(
      '<details><summary class="hint">Definition</summary><div class="hint">lower</div></details>',
    );
    expect(front("{{hint:Empty}}")).toBe("");
  });

  it("hides the card's own cloze on the front and reveals it on the back", () => {
    expect(front("{{cloze:Cloze}}", 1)).toBe('Paris and <span class="cloze">[city]</span>');
    expect(renderTemplate("{{cloze:Cloze}}", { fields, ord: 0, side: "back" })).toBe(
      '<span class="cloze">Paris</span> and Rome',
    );
  });

  it("applies chained filters right to left", () => {
    expect(renderTemplate("{{text:hint:W}}", { fields: { W: "<b>x</b>" }, ord: 0, side: "front" })).toBe("Wx");
  });

  it("fills Anki's special fields", () => {
    const special = { Tags: "a b", Deck: "A::B", Subdeck: "B", Card: "Card 1", Type: "Basic" };
    expect(
      renderTemplate("{{Tags}}|{{Deck}}|{{Subdeck}}|{{Card}}|{{Type}}", { fields, ord: 0, side: "front", special }),
    ).toBe("a b|A::B|B|Card 1|Basic");
  });

  it("ignores comments and stray closing tags", () => {
    expect(front("{{!note}}{{/Word}}{{Word}}")).toBe("abase");
  });
});

describe("isFieldEmpty", () => {
  it("counts whitespace, nbsp, <br> and empty divs as empty", () => {
    expect(isFieldEmpty(" <div><br/></div>&nbsp;")).toBe(true);
    expect(isFieldEmpty("<img src='a.png'>")).toBe(false);
  });
});
