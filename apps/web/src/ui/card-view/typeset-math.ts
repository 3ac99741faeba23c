/**
 * Card math typeset with KaTeX (docs/product.md §5, "How cards look"). Loaded
 * only when a face holds math (load-math.ts), so other screens never fetch
 * KaTeX. `trust: false` keeps `\href`, `\url` and `\htmlClass` from adding
 * links or attributes, so the output needs no further sanitising.
 */
import { type MathSpan, replaceMath } from "@engram/core";
import katex from "katex";

const options = {
  throwOnError: false,
  trust: false,
  strict: "ignore",
  output: "htmlAndMathml",
  // A runaway macro or a huge size must not freeze or flood the card.
  maxExpand: 1000,
  maxSize: 100,
} as const;

/** The HTML with every formula typeset; a `[latex]` block KaTeX cannot read shows its source. */
export function typesetMath(html: string): string {
  return replaceMath(html, typesetSpan);
}

function typesetSpan(span: MathSpan): string {
  if (span.kind !== "latex")
    return katex.renderToString(span.tex, { ...options, displayMode: span.kind === "display" });
  const html = katex.renderToString(mathOfLatex(span.tex), { ...options, displayMode: true });
  return html.includes("katex-error") ? latexSource(span.tex) : html;
}

/** `[latex]` holds part of a LaTeX document; math written inside `$…$`, `$$…$$` or `\[…\]` is what KaTeX can show. */
function mathOfLatex(tex: string): string {
  const body = tex.trim();
  for (const [open, close] of [
    ["$$", "$$"],
    ["\\[", "\\]"],
    ["$", "$"],
    ["\\(", "\\)"],
  ] as const) {
    if (body.length > open.length + close.length && body.startsWith(open) && body.endsWith(close)) {
      return body.slice(open.length, body.length - close.length);
    }
  }
  return body;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function latexSource(tex: string): string {
  return `<div class="card-latex-source"><p class="card-latex-note">This LaTeX cannot be typeset here; its source:</p><pre><code>${escapeHtml(tex)}</code></pre></div>`;
}
