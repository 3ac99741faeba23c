/**
 * A new user's first minute (docs/product.md §1 and §2, "The first minute"): the sample deck from
 * the empty dashboard, the confirmation link opened in another browser, the
 * code from the email typed in, and a name chosen before a deck goes public.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { adminClient, newAccount, uniqueEmail } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { nextEmail } from "./support/mailbox.js";
import { decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;

beforeEach(async () => {
  page = await openPage(browser());
});

const password = "correct horse battery";

async function signUp(email: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
}

test("a new user adds the sample deck from the empty dashboard and studies its first card", async () => {
  const account = await newAccount("sample");
  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await page.getByRole("heading", { name: "Make your first deck" }).waitFor();

  await page.getByRole("button", { name: "Add a sample deck" }).click();
  const added = page.getByRole("status").filter({ hasText: "Sample deck added" });
  await added.waitFor();
  // The dashboard now holds the deck, its new cards waiting.
  await page.getByRole("link", { name: "Study all" }).waitFor();
  expect(await page.getByRole("heading", { name: "Make your first deck" }).count()).toBe(0);
  await screenshot(page, "first-minute-sample-added");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  const { data: decks } = await adminClient().from("decks").select("id, name").eq("owner_id", account.id);
  expect(decks?.map((deck) => deck.name)).toEqual(["Sample: How memory works"]);
  const deckId = decks?.[0]?.id ?? "";

  await added.getByRole("link", { name: "Study now" }).click();
  await page.waitForURL((url) => url.pathname === `/decks/${deckId}/study`);
  await page.getByRole("button", { name: /Show answer/ }).click();
  await page.getByRole("button", { name: /^Good / }).click();
  const answers = async () =>
    (await adminClient().from("review_logs").select("id", { count: "exact", head: true }).eq("user_id", account.id))
      .count ?? 0;
  await expect.poll(answers).toBe(1);
});

test("the confirmation link opened in another browser says the email is confirmed, and signing in there works", async () => {
  const email = uniqueEmail("elsewhere");
  await signUp(email);
  const mail = await nextEmail(email);

  const other = await openPage(browser());
  await other.goto(mail.link);
  await other.getByRole("heading", { name: "Your email is confirmed" }).waitFor();
  expect(await other.getByText("This link didn't work").count()).toBe(0);
  await screenshot(other, "first-minute-confirmed-elsewhere");
  expect(await axeViolationsInBothThemes(other)).toEqual([]);

  await other.getByRole("region", { name: "Your email is confirmed" }).getByRole("link", { name: "Sign in" }).click();
  await signInWithPassword(other, { email, password }, "");
  await decksHeading(other).waitFor();
});

test("the code from the email, typed on the check-email screen, signs the new user in; a wrong code is explained", async () => {
  const email = uniqueEmail("code");
  await signUp(email);
  const { code } = await nextEmail(email);
  expect(code).toMatch(/^\d{6,10}$/);

  const field = page.getByLabel("Enter the code from the email");
  await field.fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue with the code" }).click();
  await page.locator(".field-error").getByText("That code is wrong or has expired").waitFor();
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  await screenshot(page, "first-minute-wrong-code");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await field.fill(code);
  await page.getByRole("button", { name: "Continue with the code" }).click();
  await decksHeading(page).waitFor();
});

test("publishing with the default name asks for a name first, and Explore then shows it", async () => {
  const account = await newAccount("maya", { nameChosen: false });
  const tag = randomUUID().slice(0, 8);
  const deckName = `Rivers ${tag}`;
  const deckId = await seedDeck(account.id, deckName, [{ front: "Longest river in Africa", back: "Nile" }]);
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent(`/decks/${deckId}/settings`)}`);
  await page.getByRole("heading", { level: 1, name: "Deck settings" }).waitFor();

  await page.getByRole("checkbox", { name: "Public deck" }).check();
  await page.getByRole("button", { name: "Save changes" }).click();
  const dialog = page.getByRole("dialog", { name: "How should others see your name?" });
  await dialog.waitFor();
  // Nothing is published before the name is saved.
  const stored = await adminClient().from("decks").select("is_public").eq("id", deckId).single();
  expect(stored.data?.is_public).toBe(false);
  await screenshot(page, "first-minute-name-prompt");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await dialog.getByLabel("Your name").fill("");
  await dialog.getByRole("button", { name: "Save and publish" }).click();
  await dialog.getByText("Enter the name others see").first().waitFor();
  await dialog.getByLabel("Your name").fill("Maya Weiss");
  await dialog.getByRole("button", { name: "Save and publish" }).click();
  await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
  expect(await dialog.count()).toBe(0);

  // Making an invite link now goes straight on: the name was chosen.
  await page.getByRole("button", { name: "Create invite link" }).click();
  await page
    .getByRole("status")
    .filter({ hasText: /Link copied|Couldn't copy/ })
    .waitFor();
  expect(await page.getByRole("dialog").count()).toBe(0);

  await page.goto(`/explore?q=${tag}`);
  const item = page.getByRole("listitem").filter({ hasText: deckName });
  await item.getByText("by Maya Weiss").waitFor();
});
