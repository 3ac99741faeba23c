/**
 * Anki packages come in whole: a package's own note type is kept (the summary says
 * so, and what its templates hold that cards never run), its cards look as the
 * note type's CSS says, media the file lacks are named, and the deck exported
 * goes back in onto the same note type.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { chooseByKeyboard, dropZone, figure, pressOn, summaryHeading } from "./support/import-fixtures.js";
import { signInWithPassword } from "./support/screens.js";

const ownFixtures = fileURLToPath(new URL("../../../packages/core/fixtures/anki/", import.meta.url));

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("import-whole");
});

async function openImport() {
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent("/import")}`);
  await dropZone(page).waitFor();
  // Arriving moves focus to the page's content; only after that does a focused control keep it.
  await page.waitForFunction(() => document.activeElement?.id === "main");
}

async function openDeckId(): Promise<string> {
  const href = await page.getByRole("link", { name: "Open deck" }).getAttribute("href");
  const deckId = href?.split("/").pop();
  if (!deckId) throw new Error("no Open deck link");
  return deckId;
}

async function noteTypesOf(deckId: string) {
  const { data, error } = await adminClient().from("note_types").select("name, css").eq("deck_id", deckId);
  if (error) throw error;
  return data;
}

test("a custom note type is kept, studied with its CSS, exported and imported back onto itself", async () => {
  await openImport();
  await chooseByKeyboard(page, `${ownFixtures}custom-note-type.apkg`);
  await page.getByRole("heading", { level: 2, name: "custom-note-type.apkg" }).waitFor();
  expect(await page.locator(".import-lists").textContent()).toContain("Vocabulary (5 fields)");
  expect(await page.locator(".import-lists").textContent()).toContain("kept as it is");
  await page.getByLabel("New deck name").fill("Vocabulary");
  await pressOn(page, page.getByRole("button", { name: "Import", exact: true }));
  await summaryHeading(page).waitFor({ timeout: 0 });
  expect(await figure(page, "Notes added")).toBe(3);
  expect(await figure(page, "Cards")).toBe(5);
  const notices = page.locator(".import-summary .import-notices");
  expect(await notices.locator(".import-note-types li").allInnerTexts()).toEqual(["Vocabulary (5 fields)"]);
  expect(await notices.textContent()).toContain("Vocabulary (5 fields)'s templates hold <script>");
  await screenshot(page, "import-note-type-summary");
  const deckId = await openDeckId();
  expect(await noteTypesOf(deckId)).toEqual([
    {
      name: "Vocabulary (5 fields)",
      css: ".card { text-align: left; font-family: Arial }\n.pos { font-style: italic; }\n",
    },
  ]);

  // Studied, the card is laid out by the note type's CSS: left-aligned.
  await page.goto(`/decks/${deckId}/study`);
  const front = page.locator(".study-card .card-view-front");
  await front.waitFor();
  await expect.poll(() => front.textContent()).toMatch(/la casa|correr|el duende|the house|to run/);
  const align = await front.evaluate((element) => getComputedStyle(element.closest(".card") ?? element).textAlign);
  expect(align).toBe("left");

  // Exported from the deck screen, then imported into the same deck: nothing twice, the same note type.
  await page.goto(`/decks/${deckId}`);
  await pressOn(page, page.getByRole("button", { name: "Export" }));
  const item = page.getByRole("menuitem", { name: "Anki package (.apkg)" });
  await item.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), pressOn(page, item)]);
  const exported = await download.path();
  const bytes = await readFile(exported);
  expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");

  await page.goto("/import");
  await dropZone(page).waitFor();
  await chooseByKeyboard(page, { name: "Vocabulary.apkg", mimeType: "application/zip", buffer: bytes });
  await page.getByRole("heading", { level: 2, name: "Vocabulary.apkg" }).waitFor();
  await page.getByRole("radio", { name: "A deck I already have" }).check();
  await page.getByLabel(/^Deck$/).selectOption({ label: "Vocabulary" });
  await pressOn(page, page.getByRole("button", { name: "Import", exact: true }));
  await summaryHeading(page).waitFor({ timeout: 0 });
  expect(await figure(page, "Notes added")).toBe(0);
  expect(await figure(page, "Notes skipped")).toBe(3);
  expect(await notices.locator(".import-note-types li").allInnerTexts()).toEqual([
    "Vocabulary (5 fields) (already in the deck)",
  ]);
  expect(await noteTypesOf(deckId)).toHaveLength(1);
}, 300_000);

test("media the notes use but the file lacks are named in the preview and the summary", async () => {
  await openImport();
  await chooseByKeyboard(page, `${ownFixtures}missing-media.apkg`);
  await page.getByRole("heading", { level: 2, name: "missing-media.apkg" }).waitFor();
  expect(await page.locator(".import-panel .import-notices").textContent()).toContain(
    "2 images or sounds are missing from the file: nothere.mp3, nothere.png.",
  );
  await page.getByLabel("New deck name").fill("Pictures");
  await pressOn(page, page.getByRole("button", { name: "Import", exact: true }));
  await summaryHeading(page).waitFor({ timeout: 0 });
  expect(await figure(page, "Notes added")).toBe(2);
  expect(await figure(page, "Images and sounds")).toBe(1);
  expect(await page.locator(".import-summary .import-notices").textContent()).toContain(
    "2 images or sounds are missing from the file: nothere.mp3, nothere.png.",
  );
}, 300_000);
