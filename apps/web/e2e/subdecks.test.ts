import { writeApkg } from "@engram/core/export";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { cardArea } from "./study-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { chooseByKeyboard, deckIdsOf, dropZone, summaryHeading } from "./support/import-fixtures.js";
import { signInWithPassword } from "./support/screens.js";

// Subdecks (docs/product.md, decks): an Anki package's deck tree comes in as
// decks under the new deck, the deck list shows the tree with each deck's
// figures over its subdecks, studying a parent studies its subdecks, and
// "Move…" puts a deck elsewhere in the tree.

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("subdecks");
});

/** Anki's decks "Spanish", "Old Decks::Board Review 2023" (two notes) and "Example Deck", written by core's exporter. */
async function subdecksPackage() {
  const note = (id: number, deckName: string, front: string) => ({
    id,
    guid: `subdeck-${id}`,
    kind: "basic" as const,
    fields: { front, back: `Back of ${front}` },
    tags: [],
    cards: [{ id, ordinal: 1 }],
    deckName,
  });
  const data = await writeApkg({
    name: "Subdecks",
    notes: [
      note(1, "Spanish", "hola"),
      note(2, "Old Decks::Board Review 2023", "Heart chambers"),
      note(3, "Old Decks::Board Review 2023", "Lung lobes"),
      note(4, "Example Deck", "An example"),
    ],
    media: [],
  });
  return { name: "subdecks.apkg", mimeType: "application/octet-stream", buffer: Buffer.from(data) };
}

/** A deck's row in a list of decks, by its name's heading or link. */
const deckRow = (name: string) => page.getByRole("listitem", { name, exact: true });
const toggle = (name: string) => page.getByRole("button", { name: `Subdecks of ${name}`, exact: true });

test("an Anki package's deck tree: imported as subdecks, listed as a tree with rolled-up counts, studied from the parent", async () => {
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent("/import")}`);
  await dropZone(page).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === "main");
  await chooseByKeyboard(page, await subdecksPackage());
  await page.getByRole("heading", { level: 2, name: "subdecks.apkg" }).waitFor();

  // A package with several decks offers keeping its tree, chosen by default.
  const keepTree = page.getByRole("radio", { name: "Keep the package's deck tree" });
  expect(await keepTree.isChecked()).toBe(true);
  expect(await page.getByRole("radio", { name: /^One deck/ }).isChecked()).toBe(false);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.getByLabel("New deck name").fill("Board prep");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await summaryHeading(page).waitFor();

  const decks = await deckIdsOf(account.id);
  expect(decks.map((deck) => deck.name).sort()).toEqual([
    "Board Review 2023",
    "Board prep",
    "Example Deck",
    "Old Decks",
    "Spanish",
  ]);

  await page.goto("/decks");
  await deckRow("Board prep").waitFor();
  // The tree: Board prep › Old Decks › Board Review 2023, each level a list inside its parent's row.
  const subdecksOfOld = page.getByRole("list", { name: "Subdecks of Old Decks" });
  await subdecksOfOld.getByRole("heading", { name: "Board Review 2023" }).waitFor();
  expect(
    await page.getByRole("list", { name: "Subdecks of Board prep" }).getByRole("heading", { level: 2 }).allInnerTexts(),
  ).toEqual(expect.arrayContaining(["Spanish", "Old Decks", "Example Deck", "Board Review 2023"]));
  // Counts roll up: Old Decks has no cards of its own and shows its subdeck's two new cards; Board prep all four.
  const newCount = async (name: string) =>
    (await deckRow(name).getByRole("list", { name: "Due today" }).first().textContent())?.match(/(\d+)\s*new/)?.[1];
  await expect.poll(() => newCount("Old Decks")).toBe("2");
  expect(await newCount("Board prep")).toBe("4");
  expect(await newCount("Board Review 2023")).toBe("2");

  // The disclosure triangle works from the keyboard.
  expect(await toggle("Old Decks").getAttribute("aria-expanded")).toBe("true");
  await toggle("Old Decks").focus();
  await page.keyboard.press("Enter");
  expect(await toggle("Old Decks").getAttribute("aria-expanded")).toBe("false");
  expect(await subdecksOfOld.isHidden()).toBe(true);
  await page.keyboard.press("Space");
  expect(await toggle("Old Decks").getAttribute("aria-expanded")).toBe("true");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "subdecks-list");

  // A subdeck's page says where it sits.
  await deckRow("Board Review 2023").getByRole("link", { name: "Board Review 2023", exact: true }).click();
  const crumbs = page.getByRole("navigation", { name: "Deck path" });
  await crumbs.waitFor();
  expect(await crumbs.getByRole("listitem").allTextContents()).toEqual([
    "Board prep",
    "Old Decks",
    "Board Review 2023",
  ]);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Studying Old Decks shows a card of Board Review 2023.
  await crumbs.getByRole("link", { name: "Old Decks", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Old Decks" }).waitFor();
  await page.getByRole("link", { name: "Study", exact: true }).click();
  // (The study screen's own accessibility is pinned by study.test.ts.)
  await cardArea(page).locator(".card-view-front").getByText("Heart chambers", { exact: true }).waitFor();

  // "Move…" on the deck list: a deck's own subdecks are not offered as its place.
  await page.goto("/decks");
  await deckRow("Board prep").getByRole("button", { name: "Move… Board prep", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "Move “Board prep”" });
  await dialog.waitFor();
  expect(await dialog.getByRole("radio").count()).toBe(1);
  expect(await dialog.getByRole("radio", { name: "At the top level" }).isChecked()).toBe(true);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });

  // Board Review 2023 goes to the top level: the tree updates, and its cards still study.
  await deckRow("Board Review 2023").getByRole("button", { name: "Move… Board Review 2023", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Move “Board Review 2023”" });
  await dialog.waitFor();
  expect(await dialog.getByRole("radio", { name: "Board prep › Old Decks", exact: true }).isChecked()).toBe(true);
  expect(await dialog.getByRole("radio", { name: /Board Review 2023/ }).count()).toBe(0);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "subdecks-move");
  await dialog.getByRole("radio", { name: "At the top level" }).check();
  await dialog.getByRole("button", { name: "Move deck" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("list", { name: "Subdecks of Old Decks" }).waitFor({ state: "detached" });
  expect(await page.getByRole("list", { name: "Decks" }).getByRole("heading", { level: 2 }).allInnerTexts()).toEqual(
    expect.arrayContaining(["Board Review 2023", "Board prep"]),
  );
  expect(
    await page.getByRole("list", { name: "Subdecks of Board prep" }).getByRole("heading", { level: 2 }).allInnerTexts(),
  ).not.toContain("Board Review 2023");
  await expect.poll(() => newCount("Board prep")).toBe("2");
  expect(await newCount("Board Review 2023")).toBe("2");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await deckRow("Board Review 2023").getByRole("link", { name: "Study Board Review 2023", exact: true }).click();
  await cardArea(page).locator(".card-view-front").getByText("Heart chambers", { exact: true }).waitFor();
});
