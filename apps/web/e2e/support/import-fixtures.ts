/** Real Anki packages, their expected contents and the import screen's parts, for the import browser tests. */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type AnkiPreview, previewImport } from "@engram/sdk/transfer";
import type { FileChooser, Page } from "playwright-core";
import { expect } from "vitest";
import { adminClient } from "./accounts.js";

const fixtureDir = fileURLToPath(new URL("../../../../../shared/fixtures/anki/", import.meta.url));

export const fixturePath = (name: string) => `${fixtureDir}${name}`;

export const fixtureBytes = (name: string) => readFile(fixturePath(name));

/** What an importer should find in a package (fixtures/anki/expected/<name>.json). */
export async function expectedContents(
  name: string,
): Promise<{ counts: { notes: number; cards: number; media: number } }> {
  return JSON.parse(await readFile(`${fixtureDir}expected/${name}.json`, "utf8"));
}

/** The SDK's own reading of a package in Node: the numbers the screen must agree with. */
export async function sdkPreview(name: string): Promise<AnkiPreview> {
  const preview = await previewImport({ name, data: new Uint8Array(await fixtureBytes(name)) });
  if (preview.format !== "apkg" && preview.format !== "colpkg") throw new Error(`${name} is not an Anki package`);
  return preview;
}

export const dropZone = (page: Page) => page.getByRole("button", { name: "Choose a file to import or drop it here" });

const choosers = new WeakMap<Page, FileChooser[]>();

/**
 * File choosers the page opens, from its first one on. Playwright stops
 * intercepting choosers when no one listens, and turning it back on for the
 * next file can lose the race with the key that opens it; one listener for the
 * page's life keeps it on.
 */
function chooserQueue(page: Page): FileChooser[] {
  let queue = choosers.get(page);
  if (!queue) {
    const opened: FileChooser[] = [];
    page.on("filechooser", (chooser) => opened.push(chooser));
    choosers.set(page, opened);
    queue = opened;
  }
  return queue;
}

/** Opens the picker from the keyboard (Enter on the drop zone) and gives it a file. */
export async function chooseByKeyboard(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  const queue = chooserQueue(page);
  queue.length = 0;
  await dropZone(page).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => queue.length).toBe(1);
  await queue[0]?.setFiles(file);
}

/** Drops a file made in the page on the drop zone: text, or `megabytes` of zeros. */
export async function dropFile(page: Page, file: { name: string; type: string; text?: string; megabytes?: number }) {
  const dataTransfer = await page.evaluateHandle(({ name, type, text, megabytes }) => {
    const megabyte = new Uint8Array(1024 * 1024);
    const parts = text === undefined ? Array.from({ length: megabytes ?? 0 }, () => megabyte) : [text];
    const transfer = new DataTransfer();
    transfer.items.add(new File(parts, name, { type }));
    return transfer;
  }, file);
  await dropZone(page).dispatchEvent("dragenter", { dataTransfer });
  await dropZone(page).dispatchEvent("drop", { dataTransfer });
}

/** A figure of the preview or summary, by its label ("Notes", "Cards added"…), as a number. */
export async function figure(page: Page, label: string): Promise<number> {
  const value = await page
    .locator(".import-count")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd")
    .textContent();
  return Number(value?.replace(/[^\d]/g, ""));
}

export const summaryHeading = (page: Page) => page.getByRole("heading", { level: 2, name: /^Imported into / });

/** Presses Enter on a control, as a keyboard user reaches it. */
export async function pressOn(page: Page, control: ReturnType<Page["getByRole"]>) {
  await control.focus();
  await page.keyboard.press("Enter");
}

export async function deckIdsOf(userId: string): Promise<{ id: string; name: string }[]> {
  const { data, error } = await adminClient().from("decks").select("id, name").eq("owner_id", userId);
  if (error) throw error;
  return data;
}

export async function reviewCount(userId: string): Promise<number> {
  const { count, error } = await adminClient()
    .from("review_logs")
    .select("id", { count: "exact", head: true })
    .eq("user_id", userId);
  if (error) throw error;
  return count ?? 0;
}
