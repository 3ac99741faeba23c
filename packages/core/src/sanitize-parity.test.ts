/**
 * The two sanitisers side by side on the same input, in one process: the
 * browser's (DOMPurify, here over jsdom) must keep exactly what sanitize-html
 * keeps, so a card looks the same and is as safe wherever it is rendered.
 */
import { JSDOM } from "jsdom";
import { describe, expect, test } from "vitest";
import { canonicalHtml, canonicalSvg } from "./html-test-support";
import { createDomSanitizers, type SanitizerWindow } from "./sanitize-dom";
import * as node from "./sanitize-node";

const dom = createDomSanitizers(new JSDOM("").window as unknown as SanitizerWindow);
const base = "https://media.example.test/deck-1/";

const cardHtml = [
  "<b>bold</b> <i>it</i> <u>u</u> <em>e</em> <strong>s</strong> <code>c</code>",
  '<p class="lead">a<br>b</p><div><span class="cloze">[...]</span></div>',
  '<ol start="3" type="a"><li>x</li></ol><ul><li>y</li></ul>',
  '<table><caption>t</caption><colgroup span="2"><col span="1"></colgroup><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">d</td></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table>',
  "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby><ruby><rb>日本</rb><rt>にほん</rt></ruby>",
  '<details open ontoggle="x()"><summary class="hint">Field</summary><div class="hint">h</div></details>',
  '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><hr id="answer"><hr id="x">',
  "a<script>alert(1)</script>b<style>*{}</style>c<textarea>t</textarea>d<xmp><b>x</b></xmp>e",
  '<img src="x.png" onerror="alert(1)"><img src="javascript:alert(1)"><img src="//e.org/a.png"><img>',
  '<img src="a b.png" alt="A" title="T" width="10" height="20" style="x" class="c">',
  `<img src="${base}a.png"><img src="${base}../deck-2/a.png"><img src="https://media.example.test/deck-10/a.png">`,
  '<audio src="a.mp3" controls loop autoplay><source src="b.ogg" type="audio/ogg"><source src="http://e.org/c.mp3"></audio>',
  '<a href="https://e.org" title="t">1</a><a href="JAVASCRIPT:x">2</a><a href="vbscript:x">3</a><a href="rel/x">4</a>',
  '<a href="mailto:a@e.org">m</a><a href="//e.org">p</a><a href="  https://e.org/ok ">s</a><a>none</a>',
  '<iframe src="https://e.org"></iframe><object data=x></object><embed src=x><form action=x><input value=v><button>b</button></form>',
  '<svg><circle r="1"/></svg><math><mi>x</mi></math><video src="v.mp4"></video><link rel="stylesheet" href="x.css"><meta http-equiv="refresh">',
  '<div data-x="1" aria-label="l" id="root" name="n" role="button" tabindex="0" onclick="x()">d</div>',
  "<!-- comment --><b>after</b>",
  "plain &amp; text &lt;not a tag&gt; &nbsp; end",
  '<engram-type-answer data-field="Back" data-reveal data-nc onclick="x()" data-x="1" id="y" class="c"></engram-type-answer><span data-field="Back">s</span>',
  '<engram-occlusion data-ordinal="2" data-side="front" data-masks="[{&quot;shape&quot;:&quot;rect&quot;,&quot;text&quot;:&quot;\\u003cb\\u003e&quot;}]" data-x="1" onclick="x()" id="z"><img src="a.png" onerror="x()"></engram-occlusion>',
  // Misnested markup is left out: HTML's parser and htmlparser2 repair it differently, both safely.
  "<noscript><b>n</b></noscript><template><b>t</b></template><select><option>o</option></select>",
  // Inline styles: only allowed properties with safe values, tables may size and border themselves.
  '<span style="color: rgb(255, 0, 0); font-weight: bold">r</span><span style="COLOR:Red;position:fixed;top:0">p</span>',
  '<b style="background-image:url(https://e.org/x.png);background-color:#ff0">u</b><i style="width:expression(alert(1));font-style:italic">e</i>',
  "<span style=\"font-family: 'Times New Roman', serif; font-size: 1.2em; text-decoration: underline; vertical-align: super\">f</span>",
  '<table style="width:50%;border:1px solid;border-collapse:collapse"><tbody><tr><td style="padding: 2px 4px; border-left: 2px dashed blue; text-align: left">t</td><th style="width: 3em">h</th></tr></tbody></table>',
  '<div style="width:100px;padding:9px;border:1px solid">w</div><span style="color:red !important;display:none">i</span>',
  '<span style="color: javascript:alert(1)">j</span><span style="color:">e</span><span style="}{color:red">b</span><span style=";;;">s</span>',
  '<p style="text-align: center; color: var(--x); font-size: calc(1em + 2px)">c</p><col style="width:20%">',
];

describe("both card sanitisers keep the same", () => {
  test.each(cardHtml)("%s", (html) => {
    for (const options of [{}, { mediaBaseUrl: base }]) {
      expect(canonicalHtml(dom.sanitizeCardHtml(html, options))).toBe(
        canonicalHtml(node.sanitizeCardHtml(html, options)),
      );
    }
  });
});

const wrap = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;
const svgs = [
  wrap(
    '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="red"/></linearGradient></defs><path d="M0 0L10 10" fill="url(#g)"/>',
  ),
  wrap(
    '<g transform="rotate(5)"><rect x="1" y="1" width="5" height="5" rx="1" onclick="x()"/><text x="1" y="5">Hi &amp; <tspan>there</tspan></text></g>',
  ),
  wrap('<script>alert(1)</script><style>*{}</style><foreignObject><div>html</div></foreignObject><circle r="2"/>'),
  wrap(
    '<use href="#g"/><use href="https://e.org/a.svg#p"/><rect fill="url(https://e.org/p)" stroke="url( #ok)"/><image href="x.png"/>',
  ),
  wrap(
    '<a href="javascript:alert(1)"><circle r="1"/></a><clipPath id="c"><circle r="3"/></clipPath><g clip-path="url(#c)"/>',
  ),
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1"><use xlink:href="#a"/><symbol id="a" viewBox="0 0 1 1"><path d="M0 0"/></symbol></svg>',
  '<svg width="1" height="1"><rect width="1" height="1"/></svg>',
];

describe("both SVG sanitisers keep the same", () => {
  test.each(svgs)("%s", (svg) => {
    expect(canonicalSvg(dom.sanitizeSvg(svg))).toBe(canonicalSvg(node.sanitizeSvg(svg)));
  });

  test("text that is not an SVG becomes empty in both", () => {
    for (const input of ["<html><body>hello</body></html>", "hello", "<p>x</p>"]) {
      expect([dom.sanitizeSvg(input), node.sanitizeSvg(input)]).toEqual(["", ""]);
    }
  });
});
