import { describe, expect, test } from "vitest";
import * as active from "#sanitizer";
import { canonicalHtml } from "./html-test-support";
import { hasContent, safeMediaSrc, sanitizeCardHtml, stripMarkup } from "./sanitize";

const base = "https://project.supabase.co/storage/v1/object/public/media/deck-1/";

/** Compared by meaning: see html-test-support.ts. */
const expectClean = (html: string, expected: string, options = {}) =>
  expect(canonicalHtml(sanitizeCardHtml(html, options))).toBe(canonicalHtml(expected));

test("this run uses the sanitiser its environment selects: DOMPurify in a browser, sanitize-html elsewhere", () => {
  expect("createDomSanitizers" in active).toBe(typeof window !== "undefined");
});

describe("sanitizeCardHtml", () => {
  test("keeps ordinary formatting, lists, tables and ruby", () => {
    const html =
      '<p class="x"><b>b</b><i>i</i><u>u</u><sub>1</sub><sup>2</sup></p><ul><li>a</li></ul>' +
      '<table><tbody><tr><td colspan="2">c</td></tr></tbody></table><ruby>漢<rt>kan</rt></ruby><pre><code>x</code></pre>';
    expect(sanitizeCardHtml(html)).toBe(html);
  });

  test("removes scripts with their content", () => {
    expect(sanitizeCardHtml("a<script>alert(1)</script>b")).toBe("ab");
  });

  test("removes style elements with their content", () => {
    expect(sanitizeCardHtml("a<style>body{display:none}</style>b")).toBe("ab");
  });

  test("removes event handlers, keeps allowed inline styles", () => {
    expect(sanitizeCardHtml('<b onmouseover="x()" style="color:red">a</b>')).toBe('<b style="color: red">a</b>');
  });

  test("keeps only allowed style properties with safe values", () => {
    expect(
      sanitizeCardHtml(
        '<span style="color: rgb(255, 0, 0); position: fixed; top: 0; background: url(https://e.org/x.png); font-style: italic">r</span>',
      ),
    ).toBe('<span style="color: rgb(255, 0, 0); font-style: italic">r</span>');
    expect(sanitizeCardHtml('<span style="width: expression(alert(1)); z-index: 9">x</span>')).toBe("<span>x</span>");
    expect(sanitizeCardHtml('<span style="background-color: url(x.png)">x</span>')).toBe("<span>x</span>");
  });

  test("reads styles as CSS does: comments, escapes and strings", () => {
    expect(sanitizeCardHtml('<span style="color:/* x */red;/* ; */font-weight : bold !important">x</span>')).toBe(
      '<span style="color: red; font-weight: bold !important">x</span>',
    );
    // An escape could spell a function's name (`u\72 l(` is `url(`): a value with one is dropped.
    expect(sanitizeCardHtml('<span style="color: u\\72 l(x); font-style: italic">x</span>')).toBe(
      '<span style="font-style: italic">x</span>',
    );
    expect(sanitizeCardHtml(`<span style="font-family: 'A; B', serif">x</span>`)).toBe(
      `<span style="font-family: 'A; B', serif">x</span>`,
    );
  });

  test("tables and cells may also set width, borders and padding; other elements may not", () => {
    expect(
      sanitizeCardHtml('<table style="width:50%;border:1px solid"><tbody><tr><td>x</td></tr></tbody></table>'),
    ).toBe('<table style="width: 50%; border: 1px solid"><tbody><tr><td>x</td></tr></tbody></table>');
    expect(sanitizeCardHtml('<div style="width:50%;border:1px solid;padding:4px">x</div>')).toBe("<div>x</div>");
  });

  test("removes javascript: links but keeps the text", () => {
    expectClean('<a href="javascript:alert(1)">x</a>', '<a rel="noopener noreferrer" target="_blank">x</a>');
    expectClean('<a href=" java\tscript:alert(1)">x</a>', '<a rel="noopener noreferrer" target="_blank">x</a>');
  });

  test("refuses protocol-relative and unknown-scheme links, keeps relative and mailto ones", () => {
    const link = (href: string) => `<a rel="noopener noreferrer" target="_blank"${href}>x</a>`;
    expectClean('<a href="//e.org/x">x</a>', link(""));
    expectClean('<a href="data:text/html,x">x</a>', link(""));
    expectClean('<a href="notes.html">x</a>', link(' href="notes.html"'));
    expectClean('<a href="mailto:a@e.org">x</a>', link(' href="mailto:a@e.org"'));
  });

  test("opens links in a new tab without an opener", () => {
    expectClean(
      '<a href="https://example.org" target="_self" rel="opener">x</a>',
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  test("drops iframes, objects, forms and svg", () => {
    expect(
      sanitizeCardHtml('<iframe src="https://e.org"></iframe><object></object><form><input></form><svg></svg>ok'),
    ).toBe("ok");
  });

  test("drops data and aria attributes and ids, which could clobber or mislead the app's own DOM", () => {
    expect(sanitizeCardHtml('<div id="root" data-x="1" aria-hidden="true">x</div>')).toBe("<div>x</div>");
  });

  test("keeps a relative image: a file in the deck's media", () => {
    expectClean('<img src="paris map.png" alt="map">', '<img src="paris map.png" alt="map" />');
  });

  test("keeps an image under the media base URL", () => {
    expectClean(`<img src="${base}a.png">`, `<img src="${base}a.png" />`, { mediaBaseUrl: base });
  });

  test("drops a remote image entirely", () => {
    expect(sanitizeCardHtml('a<img src="https://tracker.example/p.gif">b', { mediaBaseUrl: base })).toBe("ab");
  });

  test("drops srcset, which could load remote images", () => {
    expectClean('<img src="a.png" srcset="https://e.org/b.png 2x">', '<img src="a.png" />');
  });

  test("keeps audio with sources from the deck's media", () => {
    expectClean(
      '<audio controls><source src="word.mp3" type="audio/mpeg"></audio>',
      '<audio controls><source src="word.mp3" type="audio/mpeg" /></audio>',
    );
  });

  test("drops a remote audio source", () => {
    expectClean('<audio controls src="http://e.org/a.mp3"></audio>', "<audio controls></audio>");
  });

  test("keeps only the answer id on hr", () => {
    expectClean('<hr id="answer"><hr id="app-root">', '<hr id="answer" /><hr />');
  });

  test("keeps the type-in marker with only its field and reveal attributes", () => {
    expectClean(
      '<engram-type-answer data-field="Back" data-reveal data-x="1" onclick="x()" id="y"></engram-type-answer>',
      '<engram-type-answer data-field="Back" data-reveal=""></engram-type-answer>',
    );
    expect(sanitizeCardHtml('<span data-field="Back" data-reveal>s</span>')).toBe("<span>s</span>");
  });

  test("drops ids elsewhere", () => {
    expect(sanitizeCardHtml('<div id="root">x</div>')).toBe("<div>x</div>");
  });
});

describe("safeMediaSrc", () => {
  test("allows bare file names and relative paths", () => {
    expect(["a.png", "sub/a b.png", "a.png?v=2"].map((src) => safeMediaSrc(src))).toEqual([
      "a.png",
      "sub/a b.png",
      "a.png?v=2",
    ]);
  });

  test("refuses absolute URLs, schemes and root paths without a base", () => {
    const sources = [
      "https://e.org/a.png",
      "//e.org/a.png",
      "/a.png",
      "data:image/png;base64,AAAA",
      "javascript:x",
      "x:y",
    ];
    expect(sources.map((src) => safeMediaSrc(src))).toEqual(sources.map(() => null));
  });

  test("refuses backslashes, which browsers read as slashes", () => {
    expect(safeMediaSrc("\\\\e.org\\a.png")).toBeNull();
  });

  test("refuses control characters browsers would strip", () => {
    expect(safeMediaSrc("java\tscript:x")).toBeNull();
  });

  test("judges the value browsers see after trimming spaces", () => {
    expect(safeMediaSrc("  https://e.org/a.png")).toBeNull();
    expect(safeMediaSrc(" a.png ")).toBe("a.png");
  });

  test("refuses parent segments, also percent-encoded", () => {
    expect(["../a.png", `${base}../deck-2/a.png`, "x/%2E%2e/a.png"].map((src) => safeMediaSrc(src, base))).toEqual([
      null,
      null,
      null,
    ]);
  });

  test("matches the base only up to a folder boundary", () => {
    const folder = "https://media.example.test/deck-1";
    expect(safeMediaSrc("https://media.example.test/deck-10/a.png", folder)).toBeNull();
    expect(safeMediaSrc("https://media.example.test/deck-1/a.png", folder)).toBe(
      "https://media.example.test/deck-1/a.png",
    );
  });
});

describe("stripMarkup", () => {
  test("removes tags and trims spaces", () => {
    expect(stripMarkup("  <b>bold</b> <i>x</i>  ")).toBe("bold x");
  });

  test("turns &nbsp; into a space before trimming", () => {
    expect(stripMarkup("&nbsp;a&nbsp;&nbsp;")).toBe("a");
  });

  test("replaces &nbsp; only in lower case", () => {
    expect(stripMarkup("&NBSP;")).toBe("&NBSP;");
  });

  test("keeps other entities", () => {
    expect(stripMarkup("&amp;&#160;")).toBe("&amp;&#160;");
  });

  test("trims spaces only, like Postgres btrim", () => {
    expect(stripMarkup("\t a \n")).toBe("\t a \n");
  });

  test("removes everything from < to the next >, even across lines", () => {
    expect(stripMarkup("a<b\nc>d<e")).toBe("ad<e");
  });

  test("joins &nbsp; split by a tag after removing the tag", () => {
    expect(stripMarkup("&nb<b>sp;x")).toBe("x");
  });

  test("empties markup-only html", () => {
    expect(["<b> </b>", "<div><br></div>", "&nbsp;", '<img src="a.png">'].map(stripMarkup)).toEqual(["", "", "", ""]);
  });

  test("stays fast on long runs of < without >", () => {
    const started = performance.now();
    expect(stripMarkup("<".repeat(200_000))).toBe("<".repeat(200_000));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("hasContent", () => {
  test("a field with only an image, audio or video has content", () => {
    expect(['<img src="a.png">', "<AUDIO src='b.mp3'></AUDIO>", "<video src=c.mp4>"].map(hasContent)).toEqual([
      true,
      true,
      true,
    ]);
  });

  test("a field of markup, spaces and &nbsp; only has none", () => {
    expect(["<b> </b>", "<div><br></div>", "&nbsp;", "<image>", "<imgs>"].map(hasContent)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
