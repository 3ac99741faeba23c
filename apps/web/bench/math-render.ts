/**
 * Typesetting cost of a card with ten formulas (inline and display, MathJax
 * delimiters and Anki's LaTeX tags): core's findMath plus KaTeX, as CardView
 * runs them once per card face. KaTeX itself loads lazily in the app; here
 * the first call shows the cold cost (KaTeX's fonts metrics and macros warm up),
 * the rest the steady cost.
 *
 *   pnpm exec tsx --conditions=source bench/math-render.ts
 */
import { performance } from "node:perf_hooks";
import { findMath, renderCard } from "@engram/core";
import { typesetMath } from "../src/ui/card-view/typeset-math.js";

const formulas = [
  "\\(x^2 + y^2 = z^2\\)",
  "\\[\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}\\]",
  "[$]\\alpha + \\beta[/$]",
  "[$$]\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}[/$$]",
  "\\(\\lim_{h \\to 0} \\frac{f(x+h) - f(x)}{h}\\)",
  "\\[\\begin{pmatrix} a &amp; b \\\\ c &amp; d \\end{pmatrix}\\]",
  "[latex]$\\nabla \\cdot \\vec{E} = \\frac{\\rho}{\\varepsilon_0}$[/latex]",
  "\\(a &lt; b \\le c\\)",
  "\\(\\binom{n}{k} = \\frac{n!}{k!(n-k)!}\\)",
  "[$]\\mathbb{R}^n \\to \\mathbb{R}[/$]",
];
const front = formulas.map((formula, index) => `<p>Formula ${index + 1}: ${formula}</p>`).join("");
const { front: html } = renderCard({ kind: "basic", fields: { front, back: "" } }, 1);
if (findMath(html).length !== 10) throw new Error(`expected 10 formulas, found ${findMath(html).length}`);

const time = (run: () => void) => {
  const start = performance.now();
  run();
  return performance.now() - start;
};

const cold = time(() => typesetMath(html));
const runs = Array.from({ length: 200 }, () => time(() => typesetMath(html))).sort((a, b) => a - b);
const find = Array.from({ length: 200 }, () => time(() => findMath(html))).sort((a, b) => a - b);
const at = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(`card with 10 formulas, ${html.length} characters of HTML`);
console.log(`  first typeset (cold): ${cold.toFixed(1)} ms`);
console.log(`  typeset p50 ${at(runs, 50).toFixed(2)} ms, p95 ${at(runs, 95).toFixed(2)} ms over ${runs.length} runs`);
console.log(`  findMath alone p50 ${at(find, 50).toFixed(3)} ms`);
