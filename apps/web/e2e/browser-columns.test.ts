/**
 * The note browser as a table: across note types it shows the sort field,
 * type, tags, cards and modified date; filtered to one note type, a column per
 * field. Notes or cards, the columns chosen, and the order a header sets are
 * kept in the URL; the database sorts and pages.
 */
import type { Engram } from "@engram/sdk";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { noteList } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
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

test("across note types, the sort field sorts every kind together, and a phone shows fewer columns, the sort field first", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  await header("Sort field").getByRole("button").click();
  await expect
    .poll(async () => (await rows()).map((cells) => cells[0]))
    .toEqual(["Capital of Austria?", "Cologne", "Munich", "Vienna"]);
  expect(new URL(page.url()).searchParams.get("sort")).toBe("sort_field");

  await page.setViewportSize({ width: 390, height: 800 });
  const shown = () =>
    noteList(page)
      .locator("thead th:not(.note-select)")
      .evaluateAll((ths) => ths.filter((th) => getComputedStyle(th).display !== "none").map((th) => th.textContent));
  await expect.poll(shown).toEqual(["Sort field", "Type", "Tags"]);
  expect(await noteList(page).getByRole("button", { name: "Cologne", exact: true }).isVisible()).toBe(true);
  await screenshot(page, "browser-columns-phone");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

/** Sets the owner's own schedule of a card, as answers would have left it. */
async function schedule(cardId: string, values: { lapses: number; reps: number; due: Date }) {
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      lapses: values.lapses,
      reps: values.reps,
      due: values.due.toISOString(),
      scheduled_days: 10,
      stability: 10,
      difficulty: 5,
      last_review: new Date(Date.now() - 86_400_000).toISOString(),
    })
    .eq("user_id", owner.id)
    .eq("card_id", cardId);
  if (error) throw error;
}

test("cards mode with the Lapses and Due columns sorts by lapses in the database, and a reload keeps it all", async () => {
  const { data: cards, error } = await adminClient().from("cards").select("id, ordinal, note_id").eq("deck_id", deckId);
  if (error) throw error;
  const { data: notes } = await adminClient().from("notes").select("id, sort_field").eq("deck_id", deckId);
  const cardOf = (sortField: string, ordinal = 1) => {
    const noteId = notes?.find((note) => note.sort_field === sortField)?.id;
    return cards.find((card) => card.note_id === noteId && card.ordinal === ordinal)?.id ?? "";
  };
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
  await schedule(cardOf("Vienna"), { lapses: 7, reps: 12, due: inDays(3) });
  await schedule(cardOf("Capital of Austria?", 2), { lapses: 2, reps: 5, due: inDays(40) });

  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  await page.getByRole("group", { name: "Show" }).getByRole("button", { name: "Cards" }).click();
  const cardList = page.getByRole("table", { name: "Cards" });
  await cardList.waitFor();
  await expect.poll(() => page.locator(".list-summary").textContent()).toBe("5 cards");

  await page.locator(".column-menu > summary").click();
  expect(await page.getByRole("checkbox", { name: "Due" }).isChecked()).toBe(true);
  // The box follows the URL, which the click changes.
  await page.getByRole("checkbox", { name: "Lapses" }).click();
  const lapses = cardList.getByRole("columnheader", { name: "Lapses" });
  await lapses.waitFor();
  expect(await page.getByRole("checkbox", { name: "Lapses" }).isChecked()).toBe(true);
  await page.keyboard.press("Escape");
  await lapses.getByRole("button").click();
  await expect.poll(() => lapses.getAttribute("aria-sort")).toBe("ascending");
  await lapses.getByRole("button").click();
  await expect.poll(() => lapses.getAttribute("aria-sort")).toBe("descending");
  const firstRow = () =>
    cardList
      .locator("tbody.note-row > tr:first-child")
      .first()
      .evaluate((tr) => [...tr.querySelectorAll(":scope > td:not(.note-select)")].map((td) => td.textContent?.trim()));
  // Vienna's card lapsed 7 times, the reversed note's second card twice.
  await expect.poll(async () => (await firstRow()).slice(0, 2)).toEqual(["Vienna", "City"]);
  const row = await firstRow();
  expect(row.at(-1)).toBe("7");
  expect(row).toContain("in 3 days");
  const params = Object.fromEntries(new URL(page.url()).searchParams);
  expect(params).toMatchObject({ mode: "cards", sort: "lapses", dir: "desc" });
  expect(params.cols?.split(",")).toEqual(expect.arrayContaining(["due", "lapses"]));

  await page.reload();
  await cardList.waitFor();
  await expect.poll(async () => (await firstRow()).slice(0, 2)).toEqual(["Vienna", "City"]);
  expect(await cardList.getByRole("columnheader", { name: "Lapses" }).getAttribute("aria-sort")).toBe("descending");
  await screenshot(page, "browser-cards-by-lapses");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

test("a deck of 3,000 notes in cards mode loads its last rows as it scrolls, sorted by the database", async () => {
  const notes = Array.from({ length: 3000 }, (_, index) => ({
    front: `word ${String(index + 1).padStart(4, "0")}`,
    back: "x",
  }));
  const bigDeck = await seedDeck(owner.id, "Three thousand", notes);
  await signInWithPassword(page, owner, `/decks/${bigDeck}?mode=cards&sort=sort_field&dir=desc`);
  const cardList = page.getByRole("table", { name: "Cards" });
  await cardList.waitFor();
  await expect.poll(() => page.locator(".list-summary").textContent()).toBe("3,000 cards");
  const texts = () => cardList.locator(".note-text").allTextContents();
  expect((await texts())[0]).toBe("word 3000");
  const scroller = page.locator(".note-scroll");
  // Scroll to the end again and again: pages load as the end comes near.
  await expect
    .poll(
      async () => {
        await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
        return (await texts()).includes("word 0001");
      },
      { timeout: 150_000, interval: 200 },
    )
    .toBe(true);
  expect(await cardList.locator("tbody.note-row").count()).toBeLessThan(100);
}, 240_000);
