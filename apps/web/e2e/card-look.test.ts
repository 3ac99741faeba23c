/**
 * How a card looks (docs/product.md §5, "How cards look"): math typeset by KaTeX
 * in study and in the editor's preview, inline styles kept, a missing image
 * named, Anki's card classes with night mode, and a note type's CSS scoped to
 * the card. The last is checked on a page of its own that mounts the real
 * CardView (built from the app's sources) with a CSS, since no screen passes
 * one yet.
 */
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { build, defaultClientConditions, type Rollup } from "vite";
import { beforeEach, expect, test } from "vitest";
import { cardArea, openStudy } from "./study-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { app, browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("look");
});

const mathNote = { front: "Square: \\(x^2\\)", back: "Area: [$$]\\int_0^1 x\\,dx[/$$]" };
const styledNote = {
  front: '<span style="color: rgb(255, 0, 0)">red</span> text',
  back: '<table style="width:50%;border:1px solid"><tbody><tr><td>cell</td></tr></tbody></table>',
};
const missingImageNote = { front: 'Picture: <img src="nothere.png" alt="gone">', back: "none" };

const face = (side: "front" | "back") => cardArea(page).locator(`.card-view-${side}`);

test("study: math typeset, inline styles kept, a missing image named, night mode classes, no axe violations", async () => {
  const deckId = await seedDeck(account.id, "Looks", [mathNote, styledNote, missingImageNote]);
  await openStudy(page, account, deckId);

  await face("front").locator(".katex").first().waitFor();
  expect(await face("front").textContent()).not.toContain("\\(");
  expect(await face("front").locator(".katex-mathml annotation").textContent()).toBe("x^2");
  const card = cardArea(page).locator(".card");
  expect(await card.getAttribute("class")).toBe("card card1");

  await page.keyboard.press("Space");
  await face("back").locator(".katex-display").waitFor();
  expect(await face("back").textContent()).not.toContain("[$$]");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => card.getAttribute("class")).toBe("card card1");
  await screenshot(page, "card-look-math-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => card.getAttribute("class")).toBe("card card1 nightMode night_mode");
  await screenshot(page, "card-look-math-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await page.keyboard.press("3");
  const red = face("front").getByText("red", { exact: true });
  await red.waitFor();
  expect(await red.evaluate((span) => getComputedStyle(span).color)).toBe("rgb(255, 0, 0)");
  await page.keyboard.press("Space");
  const table = face("back").locator("table");
  await table.waitFor();
  const look = await table.evaluate((element) => {
    const style = getComputedStyle(element);
    const parent = element.parentElement?.getBoundingClientRect().width ?? 0;
    return {
      widthShare: Math.round((element.getBoundingClientRect().width / parent) * 100),
      border: `${style.borderTopWidth} ${style.borderTopStyle}`,
    };
  });
  expect(look).toEqual({ widthShare: 50, border: "1px solid" });
  await screenshot(page, "card-look-styles");

  await page.keyboard.press("3");
  const missing = face("front").getByText("missing image: nothere.png", { exact: true });
  await missing.waitFor();
  expect(await face("front").locator("img").count()).toBe(0);
  await screenshot(page, "card-look-missing-image");
});

test("the editor's preview typesets the same math", async () => {
  const deckId = await seedDeck(account.id, "Preview", [mathNote]);
  await openStudy(page, account, deckId);
  await face("front").locator(".katex").waitFor();
  await page.keyboard.press("e");
  const preview = page.getByRole("dialog", { name: "Edit note" }).locator(".card-preview");
  await preview.locator(".card-view-back .katex-display").waitFor();
  expect(await preview.locator(".card-view-front .katex").count()).toBe(1);
  expect(await preview.locator(".card-view-front").textContent()).not.toContain("\\(");
  await screenshot(page, "card-look-preview");
});

/** A page holding the app's CardView with a QueryClient and an SDK over the local stack, built from the sources. */
async function cardPageScript(): Promise<string> {
  const appDir = fileURLToPath(new URL("../", import.meta.url));
  const entry = `${appDir}e2e/card-look-entry.js`;
  const source = `
    import { createElement, Suspense } from "react";
    import { createRoot } from "react-dom/client";
    import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
    import { createClient } from "@supabase/supabase-js";
    import { createEngram } from "@engram/sdk";
    import { EngramProvider } from "../src/session/engram-context.tsx";
    import { CardView } from "../src/ui/card-view/card-view.tsx";
    window.mountCard = ({ stackUrl, anonKey, css, note }) => {
      const engram = createEngram(createClient(stackUrl, anonKey, { auth: { persistSession: false } }));
      const load = () => Promise.resolve(engram);
      const view = createElement(CardView, { deckId: "00000000-0000-4000-8000-000000000000", note, ordinal: 1, revealed: true, css });
      createRoot(document.getElementById("card")).render(
        createElement(QueryClientProvider, { client: new QueryClient() },
          createElement(EngramProvider, { load }, createElement(Suspense, { fallback: null }, view))),
      );
    };`;
  const result = await build({
    configFile: false,
    root: appDir,
    logLevel: "error",
    mode: "production",
    // JSX for production's runtime: the test runner's NODE_ENV would otherwise pick React's development one.
    esbuild: { jsx: "automatic", jsxDev: false },
    plugins: [
      {
        name: "card-look-entry",
        resolveId: (id) => (id === entry ? entry : null),
        load: (id) => (id === entry ? source : null),
      },
    ],
    resolve: { conditions: ["source", ...defaultClientConditions] },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ["es"], fileName: "card-look" },
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === "chunk");
  if (chunk?.type !== "chunk") throw new Error("the card page did not build");
  return chunk.code;
}

test("a note type's CSS styles its card in a shadow root and nothing outside it; unsafe CSS is dropped", async () => {
  const script = await cardPageScript();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.setContent(
    '<!doctype html><html><body style="text-align: center"><p class="card" id="outside">outside</p><div id="card"></div></body></html>',
  );
  await page.addScriptTag({ content: script, type: "module" });
  await page.waitForFunction(() => "mountCard" in window);
  const css =
    '@import url("https://evil.example/x.css"); .card { text-align: left; font-family: Arial } p { color: rgb(0, 128, 0) } .nightMode .card, .card.nightMode { color: rgb(1, 2, 3) } .card { position: fixed; background: url(https://evil.example/x.png) }';
  const { stackUrl, anonKey } = app();
  await page.evaluate((init) => (window as unknown as { mountCard: (value: unknown) => void }).mountCard(init), {
    stackUrl,
    anonKey,
    css,
    note: { kind: "basic", fields: { front: "<p>inside</p>", back: "answer" } },
  });
  const inside = page.locator(".card-view-face p");
  await inside.waitFor({ state: "attached", timeout: 10_000 }).catch(() => {
    throw new Error(`the card did not render: ${errors.join("; ")}`);
  });
  const styleOf = (selector: string) =>
    page.locator(selector).evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        align: style.textAlign,
        color: style.color,
        position: style.position,
        background: style.backgroundImage,
      };
    });
  expect(await styleOf(".card-view .card")).toMatchObject({ align: "left", position: "static", background: "none" });
  expect(await styleOf(".card-view-face p")).toMatchObject({ align: "left", color: "rgb(0, 128, 0)" });
  // The page's own `.card` and paragraphs keep their look.
  expect(await styleOf("#outside")).toMatchObject({ align: "center", color: "rgb(0, 0, 0)" });
  const sheets = await page
    .locator(".card-view")
    .evaluate((host) =>
      [...(host.shadowRoot?.adoptedStyleSheets ?? [])]
        .flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
        .join("\n"),
    );
  expect(sheets).not.toContain("evil");
  expect(sheets).toContain("font-family: Arial");
});
