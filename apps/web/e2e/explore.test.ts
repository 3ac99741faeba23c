/**
 * Explore (docs/product.md §2): public decks found by name or description, previewed
 * card by card with their media, and copied into the visitor's decks (notes
 * and media) to study on their own schedule. Signed out, adding asks to sign
 * in and comes back.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { engramFor } from "./study-fixtures.js";
import { adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { redPng } from "./support/media.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();

/** A public deck of `notes` by a new user named `owner`, its name carrying `tag` so searches find only it. */
async function publicDeck(tag: string, owner: string) {
  const author = await newAccount("author");
  await adminClient().from("profiles").update({ display_name: owner }).eq("id", author.id);
  const deckId = await seedDeck(author.id, `Animals of Rome ${tag}`, [
    { front: 'Which animal? <img src="cat.png" alt="A red cat">', back: "A cat" },
    ...Array.from({ length: 11 }, (_, i) => ({ front: `Latin word ${i + 1}`, back: `Meaning ${i + 1}` })),
  ]);
  const { error } = await adminClient()
    .from("decks")
    .update({ is_public: true, description: `Latin names of animals, with pictures (${tag}).` })
    .eq("id", deckId);
  if (error) throw error;
  const engram = await engramFor(author);
  await engram.storage.uploadMedia(deckId, new Uint8Array(redPng), { name: "cat.png" });
  return { author, deckId };
}

const search = (page: Page) => page.getByRole("searchbox", { name: "Search public decks" });
const results = (page: Page) => page.getByRole("list").filter({ has: page.locator(".explore-deck") });

test("a visitor finds a public deck, previews its cards, signs in to add it and studies the copy with its pictures", async () => {
  const tag = randomUUID().slice(0, 8);
  const { deckId } = await publicDeck(tag, "Livia");
  const reader = await newAccount("reader");

  const page = await openPage(browser());
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Explore" }).click();
  await page.getByRole("heading", { level: 1, name: "Explore decks" }).waitFor();

  // Searching by a word of the description, then nothing found for a word no deck has.
  await search(page).fill(tag);
  await page.waitForURL((url) => url.searchParams.get("q") === tag);
  const item = page.getByRole("listitem").filter({ hasText: `Animals of Rome ${tag}` });
  await item.waitFor();
  // The list before the search (every public deck) stays up until the search's answer lands.
  await expect.poll(() => results(page).getByRole("listitem").count()).toBe(1);
  await item.getByText("by Livia").waitFor();
  await item.getByText("12 notes").waitFor();
  await item.getByText("not copied yet").waitFor();
  await screenshot(page, "explore");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await search(page).fill(`${tag}-nothing`);
  await page.getByText(`No public decks match “${tag}-nothing”.`).waitFor();
  await page.getByRole("button", { name: "Clear the search" }).click();
  await page.waitForURL((url) => !url.searchParams.has("q"));
  await search(page).fill(tag);
  await item.waitFor();

  // The preview: the first ten notes as cards, front and back, the picture from the deck's storage.
  await item.getByRole("button", { name: /^Preview/ }).click();
  const preview = page.getByRole("dialog", { name: `Animals of Rome ${tag}` });
  await preview.getByText("The first 10 of 12 notes").waitFor();
  expect(await preview.locator(".preview-card").count()).toBe(10);
  const picture = preview.getByRole("img", { name: "A red cat" });
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
    .toBe(2);
  expect(await picture.getAttribute("src")).toContain(`/media/${deckId}/cat.png`);
  await preview.getByText("Latin word 9").waitFor();
  expect(await preview.getByText("Latin word 10", { exact: true }).count()).toBe(0);
  expect(new URL(page.url()).searchParams.get("preview")).toBe(deckId);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "explore-preview");

  // Signed out, adding asks to sign in and comes back to this preview.
  await preview.getByRole("link", { name: /^Sign in to add/ }).click();
  await signInWithPassword(page, reader, "");
  await page.waitForURL((url) => url.pathname === "/explore" && url.searchParams.get("preview") === deckId);
  const back = page.getByRole("dialog", { name: `Animals of Rome ${tag}` });
  await back.getByRole("button", { name: /^Add to my decks/ }).click();

  // The copy opens: a deck of the reader's own.
  await page.waitForURL((url) => /^\/decks\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(deckId));
  const copyId = new URL(page.url()).pathname.split("/")[2] ?? "";
  const { data: copy } = await adminClient()
    .from("decks")
    .select("owner_id, name, is_public")
    .eq("id", copyId)
    .single();
  expect(copy).toMatchObject({ owner_id: reader.id, is_public: false });
  const { data: original } = await adminClient().from("decks").select("id").eq("id", deckId).single();
  expect(original?.id).toBe(deckId);

  // Studying the copy: its picture comes from the copy's own media folder.
  await page.goto(`/decks/${copyId}/study`);
  const image = page.locator(".study-card").getByRole("img", { name: "A red cat" });
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
    .toBe(2);
  expect(await image.getAttribute("src")).toContain(`/storage/v1/object/sign/media/${copyId}/cat.png`);
});

test("most copied first, paging with Load more, and a phone-width look", async () => {
  const tag = randomUUID().slice(0, 8);
  const author = await newAccount("author");
  const ids: string[] = [];
  for (let i = 1; i <= 22; i++) {
    ids.push(await seedDeck(author.id, `Paging ${tag} ${String(i).padStart(2, "0")}`, [{ front: "q", back: "a" }]));
  }
  const { error } = await adminClient().from("decks").update({ is_public: true }).in("id", ids);
  if (error) throw error;
  // The oldest deck is the one people copied.
  const cloner = await engramFor(await newAccount("cloner"));
  await cloner.decks.clone(ids[0] ?? "");

  const page = await openPage(browser());
  await page.goto(`/explore?q=${tag}&sort=most_cloned`);
  const items = results(page).getByRole("listitem");
  await items.first().waitFor();
  expect(await items.first().getByRole("heading").textContent()).toBe(`Paging ${tag} 01`);
  await items.first().getByText("copied 1 time").waitFor();
  expect(await items.count()).toBe(20);

  await page.getByRole("button", { name: "Load more" }).click();
  await expect.poll(() => items.count()).toBe(22);
  expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);

  // Newest first: the last deck made leads.
  await page.getByLabel("Sort by").selectOption("Newest");
  await page.waitForURL((url) => !url.searchParams.has("sort"));
  await expect.poll(() => items.first().getByRole("heading").textContent()).toBe(`Paging ${tag} 22`);

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "explore-phone");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
