// @vitest-environment jsdom
// The check parses HTML in a <template> and the editor's schema parses with the DOM: jsdom gives one in Node.
import { getSchema } from "@tiptap/react";
import { describe, expect, it } from "vitest";
import { fieldExtensions, withoutPastedStyling } from "./field-extensions.js";
import { richRoundTrip, sameMeaning, survivesRichEditor } from "./markup-roundtrip.js";

describe("sameMeaning", () => {
  it.each([
    ["bold written either way", "<b>x</b>", "<strong>x</strong>"],
    ["italic written either way", "<i>x</i>", "<em>x</em>"],
    ["inline formatting nested in either order", "<i><b>x</b></i>", "<strong><em>x</em></strong>"],
    ["a line in a div, a paragraph or none", "<div>a</div><div>b</div>", "<p>a</p>b"],
    ["collapsible whitespace", "<div>  lots   of\n space </div>", "<p>lots of space</p>"],
    ["a trailing line break, which shows nothing", "a<br>", "<p>a</p>"],
    ["a bare span", "<span>a</span>", "a"],
    ["style declarations spaced differently", '<span style="color:red;">a</span>', '<span style="color: red">a</span>'],
    ["classes in another order", '<span class="b a">x</span>', '<span class="a  b">x</span>'],
    [
      "the target and rel every link is given",
      '<a href="https://a.org">l</a>',
      '<a href="https://a.org" target="_blank" rel="noopener">l</a>',
    ],
    ["attributes the card drops", '<b data-x="1" onclick="go()">x</b>', "<b>x</b>"],
    ["an empty field and an empty paragraph", "", "<p></p>"],
    ["a list's default start", '<ol start="1"><li>a</li></ol>', "<ol><li><p>a</p></li></ol>"],
  ])("holds for %s", (_case, before, after) => {
    expect(sameMeaning(before, after)).toBe(true);
  });

  it.each([
    ["a table flattened into a line", "<table><tr><td>1</td><td>2</td></tr></table>", "<p>12</p>"],
    ["a subscript lost", "H<sub>2</sub>O", "H2O"],
    ["a ruby reading run into its text", "<ruby>漢<rt>kan</rt></ruby>", "漢kan"],
    ["an inline style lost", '<span style="color: red">r</span>', "r"],
    ["an inline style changed", '<span style="color: red">r</span>', '<span style="color: blue">r</span>'],
    ["a class lost", '<div class="big">a</div>', "<p>a</p>"],
    ["a link's address changed", '<a href="a.html">l</a>', '<a href="b.html">l</a>'],
    ["text changed", "<p>cat</p>", "<p>cart</p>"],
    ["a blank line lost", "<div>a</div><div><br></div><div>b</div>", "<p>a</p><p></p><p>b</p>"],
    ["an image lost", '<img src="cat.png">', "<p></p>"],
    ["formatting moved to other text", "<b>a</b>b", "a<b>b</b>"],
    ["an unknown element unwrapped", "<font color=red>f</font>", "f"],
  ])("fails for %s", (_case, before, after) => {
    expect(sameMeaning(before, after)).toBe(false);
  });
});

describe("survivesRichEditor with the note editor's schema", () => {
  const schema = getSchema(fieldExtensions({ deckId: "deck", onLinkShortcut: () => {} }));

  it.each([
    ["plain text", "Paris"],
    ["Anki's lines and blank lines", "<div>a</div><div><br></div><div>b</div>"],
    ["formatting, lists and links", '<b>x</b> <i>y</i> <u>z</u><ul><li>one</li></ul><a href="https://a.org">l</a>'],
    ["sub- and superscripts", "H<sub>2</sub>O x<sup>2</sup>"],
    ["a styled span", '<span style="color: red">red</span> and <span class="hint">hint</span>'],
    ["Anki's ruby", "<ruby>漢<rt>kan</rt></ruby>字"],
    ["a deck image and sound", '<img src="cat.png"><audio src="meow.mp3"></audio>'],
    ["cloze deletions", "{{c1::Paris}} is in {{c2::France}}"],
  ])("keeps %s", (_case, html) => {
    expect(survivesRichEditor(html, schema)).toBe(true);
  });

  it.each([
    ["a table", "<table><tr><td>1</td></tr></table>"],
    ["a styled paragraph", '<p style="text-align: center">c</p>'],
    ["a font element", '<font color="red">f</font>'],
    ["nested styled spans", '<span class="a"><span style="color: red">n</span></span>'],
    ["a ruby with fallback brackets", "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>"],
    ["an image from elsewhere", '<img src="https://example.org/x.png">'],
    ["a heading", "<h1>Title</h1>"],
  ])("does not keep %s", (_case, html) => {
    expect(survivesRichEditor(html, schema)).toBe(false);
  });

  it("writes sub, sup, spans and ruby back as cards show them", () => {
    expect(richRoundTrip('H<sub>2</sub> <span class="hint">h</span> <ruby>漢<rt>kan</rt></ruby>', schema)).toBe(
      '<p>H<sub>2</sub> <span class="hint">h</span> <ruby>漢<rt>kan</rt></ruby></p>',
    );
  });
});

describe("withoutPastedStyling", () => {
  it("drops the classes and inline styles a pasted page brings, keeping its elements and text", () => {
    expect(withoutPastedStyling('<p class="x" style="margin: 0"><span style="color: red">a</span> <b>b</b></p>')).toBe(
      "<p><span>a</span> <b>b</b></p>",
    );
  });
});
