import { describe, expect, it } from "vitest";
import { typesetMath } from "./typeset-math.js";

describe("typesetMath", () => {
  it("typesets inline and display math in place, keeping the HTML around it", () => {
    const html = typesetMath("<p>Square \\(x^2\\)</p><div>[$$]\\int_0^1 x\\,dx[/$$]</div>");
    expect(html.startsWith('<p>Square <span class="katex">')).toBe(true);
    expect(html).toContain('<span class="katex-display">');
    expect(html).not.toMatch(/\\\(|\[\$\$\]/);
  });

  it("typesets a [latex] block whose body is math", () => {
    expect(typesetMath("[latex]$\\frac{1}{2}$[/latex]")).toContain('<span class="katex-display">');
  });

  it("shows the source of a [latex] document KaTeX cannot typeset, with a note", () => {
    const html = typesetMath("[latex]\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture} <b>[/latex]");
    expect(html).toContain("This LaTeX cannot be typeset here");
    expect(html).toContain("<pre><code>\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture} </code></pre>");
  });

  it("shows a formula with an error as KaTeX's error text, never throwing", () => {
    expect(typesetMath("\\(\\frac{1}\\)")).toContain("katex-error");
  });

  it("adds no links or attributes from the TeX (trust is off)", () => {
    const html = typesetMath("\\(\\href{javascript:alert(1)}{x} \\htmlClass{evil}{y}\\)");
    expect(html).not.toContain("<a ");
    expect(html).not.toContain("href=");
    expect(html).not.toContain('class="evil"');
  });
});
