import { describe, expect, test } from "vitest";
import { findMath, hasMath, htmlToText, replaceMath } from "./math";

const found = (html: string) => findMath(html).map(({ tex, kind }) => ({ tex, kind }));

describe("findMath", () => {
  test("finds MathJax inline and display math in HTML text", () => {
    expect(found("<p>Area: \\(\\pi r^2\\)</p><div>\\[E = mc^2\\]</div>")).toEqual([
      { tex: "\\pi r^2", kind: "inline" },
      { tex: "E = mc^2", kind: "display" },
    ]);
  });

  test("finds Anki's LaTeX tags, case-insensitively for [latex]", () => {
    expect(found("[$]x[/$] and [$$]\\int_0^1 x\\,dx[/$$] and [LaTeX]\\frac{1}{2}[/latex]")).toEqual([
      { tex: "x", kind: "inline" },
      { tex: "\\int_0^1 x\\,dx", kind: "display" },
      { tex: "\\frac{1}{2}", kind: "latex" },
    ]);
  });

  test("gives offsets covering the delimiters", () => {
    const html = "a \\(x\\) b";
    const [span] = findMath(html);
    expect(span && html.slice(span.start, span.end)).toBe("\\(x\\)");
  });

  test("finds several per field, in order", () => {
    expect(found("\\(a\\), \\(b\\) and \\(c\\)").map((span) => span.tex)).toEqual(["a", "b", "c"]);
  });

  test("an escaped backslash does not open math", () => {
    expect(findMath("a \\\\(not math\\\\) b")).toEqual([]);
    expect(found("\\\\\\(x\\)")).toEqual([{ tex: "x", kind: "inline" }]);
  });

  test("a LaTeX line break inside math does not close it", () => {
    expect(found("\\[a \\\\ b\\]")).toEqual([{ tex: "a \\\\ b", kind: "display" }]);
  });

  test("math runs across <br> and other tags, which leave the TeX", () => {
    expect(found("\\[a +<br>b<br/> + <b>c</b>\\]")).toEqual([{ tex: "a +\nb\n + c", kind: "display" }]);
  });

  test("decodes HTML entities before typesetting, a no-break space as a plain one", () => {
    expect(found("\\(a &lt; b &amp;&amp; c &gt; d&nbsp;&#955;&#x3bb;\\)")).toEqual([
      { tex: "a < b && c > d λλ", kind: "inline" },
    ]);
  });

  test("delimiters inside a tag's attributes are not math", () => {
    expect(findMath('<img alt="\\(x\\)" src="a.png">')).toEqual([]);
    expect(findMath('<span title="a > \\(">b</span>\\)')).toEqual([]);
  });

  test("an opener without its closer is text", () => {
    expect(findMath("\\(open only")).toEqual([]);
    expect(found("[$]x \\(y\\)")).toEqual([{ tex: "y", kind: "inline" }]);
  });

  test("no math in plain HTML", () => {
    expect(findMath("<b>(a) [b] $c$</b>")).toEqual([]);
    expect(hasMath("<b>(a) [b] $c$</b>")).toBe(false);
    expect(hasMath("x \\(y\\)")).toBe(true);
  });
});

describe("replaceMath", () => {
  test("replaces each span, keeping the HTML around it", () => {
    const html = "<p>\\(a\\)<br>[$$]b[/$$]</p>";
    expect(replaceMath(html, (span) => `<m ${span.kind}>${span.tex}</m>`)).toBe(
      "<p><m inline>a</m><br><m display>b</m></p>",
    );
  });

  test("returns HTML without math as it is", () => {
    expect(replaceMath("<b>x</b>", () => "never")).toBe("<b>x</b>");
  });
});

test("htmlToText leaves unknown entities as written", () => {
  expect(htmlToText("&unknown; &#0;")).toBe("&unknown; &#0;");
});
