import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { noteList, visibleFronts } from "./deck-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

// The browser's search box takes Anki's search syntax (docs/product.md §3, "Search").

const browser = browserPerFile();
let page: Page;
let owner: Account;

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("search");
});

const summary = () => page.locator(".list-summary");
const searchBox = () => page.getByRole("searchbox", { name: "Search notes" });
const waitForSummary = (text: string) =>
  page.waitForFunction((expected) => document.querySelector(".list-summary")?.textContent === expected, text);

test("searching finds part of a word and tags, and a syntax error shows beside the box while the results stay", async () => {
  const deckId = await seedDeck(owner.id, "Cell biology", [
    { front: "<b>Mitochondria</b>", back: "The powerhouse of the cell" },
    { front: "mitochondrial DNA", back: "Inherited from the mother" },
    { front: "Osmosis", back: "Water across a membrane" },
    { front: "perro", back: "dog", tags: ["spanish"] },
    { front: "correr", back: "to run", tags: ["spanish::verbs"] },
    { front: "Ribosome", back: "Makes proteins" },
  ]);
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  expect(await summary().textContent()).toBe("6 notes");

  await searchBox().fill("mito");
  await waitForSummary("2 notes match");
  expect(await visibleFronts(page)).toEqual(["mitochondrial DNA", "Mitochondria"]);
  expect(new URL(page.url()).searchParams.get("q")).toBe("mito");

  await searchBox().fill("tag:spanish");
  // As many match as for "mito": the rows say when the answer landed.
  await expect.poll(() => visibleFronts(page)).toEqual(["correr", "perro"]);
  expect(await summary().textContent()).toBe("2 notes match");
  expect(new URL(page.url()).searchParams.get("q")).toBe("tag:spanish");

  // Half-typed: the problem is described beside the box, the last results stay.
  await searchBox().fill("tag:spanish (perro");
  const problem = page.locator("#note-search-problem");
  await problem.waitFor();
  expect(await problem.textContent()).toBe("A ( is never closed (at character 13).");
  expect(await searchBox().getAttribute("aria-describedby")).toBe("note-search-problem");
  expect(await searchBox().getAttribute("aria-invalid")).toBe("true");
  expect(await page.getByRole("alert").count()).toBe(0);
  expect(await summary().textContent()).toBe("2 notes match");
  expect(new URL(page.url()).searchParams.get("q")).toBe("tag:spanish");

  await page.getByRole("button", { name: "Search syntax" }).click();
  const help = page.locator("#search-help");
  await help.getByRole("table").waitFor();
  expect(await help.getByText("tag:spanish", { exact: true }).isVisible()).toBe(true);
  await screenshot(page, "search-syntax-help");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "hidden" });

  await searchBox().fill("tag:spanish (perro or dog)");
  await waitForSummary("1 note match");
  expect(await problem.count()).toBe(0);
  expect(await visibleFronts(page)).toEqual(["perro"]);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
