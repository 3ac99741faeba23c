import { describe, expect, test } from "vitest";
import { sanitizeSvg } from "./svg";

const wrap = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;

describe("sanitizeSvg", () => {
  test("keeps drawing: shapes, gradients, in-file references and case-sensitive names", () => {
    const svg = wrap(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<path d="M0 0L10 10" fill="url(#g)" stroke="black"/><use href="#g"/><text x="1" y="5">Hi</text>',
    );
    const clean = sanitizeSvg(svg);
    expect(clean).toContain('viewBox="0 0 10 10"');
    expect(clean).toContain('<linearGradient id="g">');
    expect(clean).toContain('fill="url(#g)"');
    expect(clean).toContain('<use href="#g"');
    expect(clean).toContain(">Hi</text>");
  });

  test("drops scripts, event handlers, styles and foreign HTML with their content", () => {
    const clean = sanitizeSvg(
      wrap(
        '<script>alert(1)</script><rect onload="alert(2)" width="5"/><style>*{fill:url(https://x.test)}</style>' +
          '<foreignObject><iframe src="https://x.test"></iframe></foreignObject><a href="javascript:alert(3)"><circle r="1"/></a>',
      ),
    );
    expect(clean).not.toMatch(/script|alert|onload|style|iframe|foreignObject|javascript/i);
    expect(clean).toContain('<rect width="5"');
    expect(clean).toContain('<circle r="1"');
  });

  test("drops references and paint that would load from elsewhere", () => {
    const clean = sanitizeSvg(
      wrap(
        '<use href="https://x.test/a.svg#p"/><use xlink:href="data:image/svg+xml,&lt;svg/&gt;"/><rect fill="url(https://x.test/p)"/><image href="https://x.test/i.png"/>',
      ),
    );
    expect(clean).not.toContain("x.test");
    expect(clean).not.toContain("data:");
    expect(clean).not.toContain("<image");
  });

  test("adds the SVG namespace a standalone file needs; non-SVG input becomes empty", () => {
    expect(sanitizeSvg('<svg width="1"><rect/></svg>')).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1">/,
    );
    expect(sanitizeSvg("<html><body>hello</body></html>")).toBe("");
  });
});
