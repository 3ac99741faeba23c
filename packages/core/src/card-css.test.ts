import { describe, expect, test } from "vitest";
import { sanitizeCardCss } from "./card-css";

describe("sanitizeCardCss", () => {
  test("keeps Anki's stock card style", () => {
    const css =
      ".card {\n font-family: arial;\n font-size: 20px;\n text-align: center;\n color: black;\n background-color: white;\n}\n";
    expect(sanitizeCardCss(css)).toBe(
      ".card{font-family:arial;font-size:20px;text-align:center;color:black;background-color:white}",
    );
  });

  test("keeps media queries, night mode classes and keyframes", () => {
    const css =
      "@media (max-width: 600px) { .card { font-size: 16px } } .nightMode .card { color: #eee } @keyframes f { from { opacity: 0 } to { opacity: 1 } }";
    const clean = sanitizeCardCss(css);
    expect(clean).toContain("@media (max-width:600px){.card{font-size:16px}}");
    expect(clean).toContain(".nightMode .card{color:#eee}");
    expect(clean).toContain("@keyframes f{from{opacity:0}to{opacity:1}}");
  });

  test("drops @import in every spelling", () => {
    for (const css of ['@import "https://evil/x.css";', "@import url(https://evil/x.css);", "@IMPORT 'x.css';"]) {
      expect(sanitizeCardCss(`${css} .card { color: red }`)).toBe(".card{color:red}");
    }
  });

  test("drops url() to other sites, keeps relative media names and embedded pictures", () => {
    const clean = sanitizeCardCss(
      '.a { background: url(https://evil/x.png) } .b { background-image: url("img.png") } ' +
        ".c { background-image: url(data:image/png;base64,AAAA) } .d { background: url(//evil/x.png) } " +
        '.e { background: url("data:text/html,<script>") } .f { background: url(/etc/x.png) } .g { background: url(../x.png) }',
    );
    expect(clean).not.toMatch(/evil|text\/html|\/etc|\.\.\//);
    expect(clean).toContain(".b{background-image:url(img.png)}");
    expect(clean).toContain(".c{background-image:url(data:image/png;base64,AAAA)}");
  });

  test("drops expression(), behavior, -moz-binding and position: fixed, keeping the rest of the rule", () => {
    const clean = sanitizeCardCss(
      ".card { width: expression(alert(1)); behavior: url(x.htc); -moz-binding: url(x.xml#b); position: fixed; color: red; position: relative }",
    );
    expect(clean).toBe(".card{color:red;position:relative}");
  });

  test("drops links hidden in escapes and string-taking functions", () => {
    const clean = sanitizeCardCss(
      '.a { background: u\\72 l(https://evil/x) } .b { background: image-set("https://evil/x.png" 1x) } .c { color: red }',
    );
    expect(clean).not.toContain("evil");
    expect(clean).toContain(".c{color:red}");
  });

  test("@font-face may use the deck's fonts but not another site's", () => {
    const clean = sanitizeCardCss(
      '@font-face { font-family: Mine; src: url("_mine.woff2") } @font-face { font-family: Theirs; src: url(https://fonts.evil/f.woff2) }',
    );
    expect(clean).toContain("@font-face{font-family:Mine;src:url(_mine.woff2)}");
    expect(clean).not.toContain("evil");
  });

  test("a </style> in the CSS cannot end the style element", () => {
    const clean = sanitizeCardCss('.a::after { content: "</style><script>alert(1)</script>" } </style><b>x');
    expect(clean).not.toContain("<");
    expect(clean).toContain(".a::after{content:");
  });

  test("javascript: anywhere in a value drops the declaration", () => {
    expect(sanitizeCardCss('.a { content: "javascript:alert(1)"; color: red }')).toBe(".a{color:red}");
  });

  test("empty or broken CSS gives something harmless", () => {
    expect(sanitizeCardCss("")).toBe("");
    expect(sanitizeCardCss("}}} .a { color: red")).not.toContain("<");
  });
});
