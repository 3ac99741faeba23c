/**
 * The note browser as a table: across note types it shows the sort field,
 * type, tags, cards and modified date; filtered to one note type, a column per
 * field. A header sorts on the server, and the URL keeps the order.
 */
import type { Engram } from "@engram/sdk";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { noteList } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let owner: Account;
let engram: Engram;
let deckId: string;
let noteTypeId: string;

const travel = {
  name: "Travel",
  kind: "standard" as const,
  fields: ["City", "Local name", "Country"],
  templates: [{ name: "City", front: "{{City}}", back: "{{FrontSide}}<hr id=answer>{{Local name}}, {{Country}}" }],
  css: "",
};
const cities = [
  { City: "<b>Munich</b>", "Local name": "München", Country: "Germany" },
  { City: "Vienna", "Local name": "Wien", Country: "Austria" },
  { City: "Cologne", "Local name": "Köln", Country: "Germany" },
];

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("columns");
  engram = await engramFor(owner);
  deckId = (await engram.decks.create({ name: "Cities" })).id;
  noteTypeId = (await engram.noteTypes.create(deckId, travel)).id;
  for (const fields of cities) {
    await engram.notes.create(deckId, { kind: "custom", noteTypeId, fields, tags: ["europe"] });
  }
  await engram.notes.create(deckId, {
    kind: "basic_reversed",
    fields: { front: "Capital of <i>Austria</i>?", back: "Vienna" },
  });
});

const headers = () => noteList(page).locator("thead th").allInnerTexts();
/** The table's body rows as their cells' text (the select box's cell left out). */
const rows = () =>
  noteList(page)
    .locator("tbody.note-row > tr:first-child")
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll(":scope > td:not(.note-select)")].map((td) => td.textContent?.trim())),
    );
const header = (name: string) => noteList(page).getByRole("columnheader", { name });

test("filtered to a note type, the browser shows a column per field, and a header sorts, kept in the URL", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}?sort=oldest`);
  await noteList(page).waitFor();
  // Across note types: the sort field (the first field as text), type, tags, cards, modified.
  expect((await headers()).slice(1)).toEqual(["Sort field", "Type", "Tags", "Cards", "Modified"]);
  await expect
    .poll(async () => (await rows()).map((cells) => cells.slice(0, 4)))
    .toEqual([
      ["Munich", "Travel", "europe", "1"],
      ["Vienna", "Travel", "europe", "1"],
      ["Cologne", "Travel", "europe", "1"],
      ["Capital of Austria?", "Basic and reversed", "", "2"],
    ]);

  await page.getByLabel("Note type").selectOption({ label: "Travel" });
  await expect
    .poll(async () => (await headers()).slice(1))
    .toEqual(["City", "Local name", "Country", "Tags", "Modified"]);
  await expect
    .poll(async () => (await rows()).map((cells) => cells.slice(0, 3)))
    .toEqual([
      ["Munich", "München", "Germany"],
      ["Vienna", "Wien", "Austria"],
      ["Cologne", "Köln", "Germany"],
    ]);
  // A cell holds one line; its full text is its title.
  expect(await noteList(page).getByRole("cell", { name: "München" }).getAttribute("title")).toBe("München");

  // A header sorts by its field, ascending, then descending.
  await header("Local name").getByRole("button").click();
  await expect.poll(async () => (await rows()).map((cells) => cells[1])).toEqual(["Köln", "München", "Wien"]);
  expect(await header("Local name").getAttribute("aria-sort")).toBe("ascending");
  await header("Local name").getByRole("button").click();
  await expect.poll(async () => (await rows()).map((cells) => cells[1])).toEqual(["Wien", "München", "Köln"]);
  expect(await header("Local name").getAttribute("aria-sort")).toBe("descending");
  const params = Object.fromEntries(new URL(page.url()).searchParams);
  expect(params).toEqual({ type: noteTypeId, sort: "field:Local name", dir: "desc" });

  // A reload (or a shared link) keeps the order.
  await page.reload();
  await expect.poll(async () => (await rows()).map((cells) => cells[1])).toEqual(["Wien", "München", "Köln"]);
  expect(await header("Local name").getAttribute("aria-sort")).toBe("descending");
  expect(await page.getByLabel("Order").inputValue()).toBe("field:Local name");

  // The first field's header sorts by the sort field: markup left out, case ignored.
  await header("City").getByRole("button").click();
  await expect.poll(async () => (await rows()).map((cells) => cells[0])).toEqual(["Cologne", "Munich", "Vienna"]);
  await screenshot(page, "browser-columns");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Opening a note still shows its cards under its row.
  await noteList(page).getByRole("button", { name: "Vienna", exact: true }).click();
  await page.getByRole("table", { name: "Cards of this note" }).getByRole("rowheader", { name: "City" }).waitFor();
});

test("across note types, the sort field sorts every kind together, and a phone scrolls the table sideways", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  await header("Sort field").getByRole("button").click();
  await expect
    .poll(async () => (await rows()).map((cells) => cells[0]))
    .toEqual(["Capital of Austria?", "Cologne", "Munich", "Vienna"]);
  expect(new URL(page.url()).searchParams.get("sort")).toBe("sort_field");

  await page.setViewportSize({ width: 390, height: 800 });
  const scroller = page.locator(".note-scroll");
  const { scrollWidth, clientWidth } = await scroller.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
  }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  expect(await noteList(page).getByRole("button", { name: "Cologne", exact: true }).isVisible()).toBe(true);
  await screenshot(page, "browser-columns-phone");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
