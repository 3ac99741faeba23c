/**
 * KaTeX's stylesheet, as one constructed sheet. The card's shadow root adopts
 * it for KaTeX's classes; the document adopts it too because browsers read
 * `@font-face` (KaTeX's fonts) only from the document's own sheets.
 */
import katexCss from "katex/dist/katex.min.css?inline";

export const mathSheet = new CSSStyleSheet();
mathSheet.replaceSync(katexCss);
if (!document.adoptedStyleSheets.includes(mathSheet)) {
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, mathSheet];
}
