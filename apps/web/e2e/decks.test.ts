import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { counts, countsText, engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("decks");
});

const deckList = () => page.getByRole("list", { name: "Decks" });
const deckItem = (name: string) => deckList().getByRole("listitem", { name });

async function cardIds(deckId: string): Promise<string[]> {
  const { data, error } = await adminClient().from("cards").select("id").eq("deck_id", deckId).order("created_at");
  if (error) throw error;
  return data.map((card) => card.id);
}

async function scheduleCard(userId: string, cardId: string, state: "review", due: Date) {
  const { error } = await adminClient()
    .from("card_states")
    .update({ state, due: due.toISOString(), stability: 4, difficulty: 5, scheduled_days: 3, reps: 2 })
    .eq("user_id", userId)
    .eq("card_id", cardId);
  if (error) throw error;
}

async function createDeck(name: string) {
  const input = page.getByLabel("New deck name", { exact: true });
  await input.fill(name);
  await page.getByRole("button", { name: "Create deck" }).click();
  await deckItem(name).waitFor();
  // The list can show the deck before the form has cleared itself; typing the next
  // name before then would be wiped by that reset.
  await expect.poll(() => input.inputValue()).toBe("");
}

test("a user creates, renames and deletes a deck", async () => {
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();
  await page.getByText("No decks yet").waitFor();

  await createDeck("Spanish verbs");
  await createDeck("Anatomy");
  expect(await deckItem("Spanish verbs").getByText("Owner").isVisible()).toBe(true);
  expect(await page.getByLabel("New deck name", { exact: true }).inputValue()).toBe("");
  await screenshot(page, "decks-list");

  await page.getByRole("button", { name: "Rename Spanish verbs" }).click();
  const renameDialog = page.getByRole("dialog", { name: "Rename “Spanish verbs”" });
  await renameDialog.waitFor();
  await screenshot(page, "deck-rename-dialog");
  await renameDialog.getByLabel("Deck name", { exact: true }).fill("Spanish irregular verbs");
  await renameDialog.getByRole("button", { name: "Save name" }).click();
  await renameDialog.waitFor({ state: "hidden" });
  expect(await deckItem("Spanish irregular verbs").isVisible()).toBe(true);
  expect(await deckItem("Spanish verbs").count()).toBe(0);

  await page.getByRole("button", { name: "Delete Anatomy" }).click();
  const deleteDialog = page.getByRole("dialog", { name: "Delete “Anatomy”?" });
  await deleteDialog.waitFor();
  await screenshot(page, "deck-delete-dialog");
  await deleteDialog.getByRole("button", { name: "Keep deck" }).click();
  await deleteDialog.waitFor({ state: "hidden" });
  expect(await deckItem("Anatomy").isVisible()).toBe(true);

  await page.getByRole("button", { name: "Delete Anatomy" }).click();
  await deleteDialog.getByRole("button", { name: "Delete deck" }).click();
  await deleteDialog.waitFor({ state: "hidden" });
  expect(await deckItem("Anatomy").count()).toBe(0);
  // The decks themselves, not the lists of counts inside them.
  expect(await deckList().locator(":scope > li").count()).toBe(1);

  // What the screen shows is what the database holds.
  const { data } = await adminClient().from("decks").select("name").eq("owner_id", account.id);
  expect(data).toEqual([{ name: "Spanish irregular verbs" }]);
});

test("a deck without a name is refused beside the field and nothing is created", async () => {
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();
  await page.getByLabel("New deck name", { exact: true }).fill("   ");
  await page.getByRole("button", { name: "Create deck" }).click();

  const field = page.getByLabel("New deck name", { exact: true });
  await page.locator(".field-error").waitFor();
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  expect(await page.getByRole("alert").first().textContent()).toContain("Give the deck a name.");
  await screenshot(page, "decks-invalid-name");
  const { count } = await adminClient()
    .from("decks")
    .select("id", { count: "exact", head: true })
    .eq("owner_id", account.id);
  expect(count).toBe(0);
});

test("renaming a deck to nothing is refused in the dialog, and Escape closes it with the name kept", async () => {
  await signInWithPassword(page, account, "/decks");
  await createDeck("Chemistry");
  await page.getByRole("button", { name: "Rename Chemistry" }).click();
  const dialog = page.getByRole("dialog", { name: "Rename “Chemistry”" });
  await dialog.getByLabel("Deck name", { exact: true }).fill("");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await dialog.getByRole("alert").filter({ hasText: "Give the deck a name." }).waitFor();
  expect(await dialog.getByLabel("Deck name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  expect(await deckItem("Chemistry").isVisible()).toBe(true);
  // The dialog hands focus back to the button that opened it.
  await expect.poll(async () => (await page.locator(":focus").textContent())?.trim()).toBe("Rename Chemistry");
});

test("a deck shared with the user shows their role and no owner actions", async () => {
  const owner = await newAccount("owner");
  const admin = adminClient();
  const { data: deck, error } = await admin
    .from("decks")
    .insert({ owner_id: owner.id, name: "Shared pharmacology" })
    .select("id")
    .single();
  if (error || !deck) throw error ?? new Error("no deck");
  const added = await admin.from("deck_members").insert({ deck_id: deck.id, user_id: account.id, role: "viewer" });
  expect(added.error).toBeNull();

  await signInWithPassword(page, account, "/decks");
  const item = deckItem("Shared pharmacology");
  await item.waitFor();
  expect(await item.getByText("Viewer").isVisible()).toBe(true);
  // Leaving is the one thing a member may do to the deck itself.
  expect(await item.getByRole("button").count()).toBe(1);
  expect(await item.getByRole("button", { name: "Leave Shared pharmacology" }).isVisible()).toBe(true);
});

test("each deck shows today's new, learning and review counts, leads to its screen, and Study opens its session", async () => {
  // A reversed note and a cloze note give one new card each today: their siblings are buried.
  const spanish = await seedDeck(account.id, "Spanish verbs", [
    ...basicNotes(4, "Verb"),
    { kind: "basic_reversed", front: "hablar", back: "to speak" },
    { kind: "cloze", text: "{{c1::Yo}} {{c2::hablo}} español" },
  ]);
  const resting = await seedDeck(account.id, "Resting deck", basicNotes(1, "Later"));
  const [reviewCard] = await cardIds(spanish);
  const [restingCard] = await cardIds(resting);
  if (!reviewCard || !restingCard) throw new Error("the notes made no cards");
  await scheduleCard(account.id, reviewCard, "review", new Date(Date.now() - 3_600_000));
  await scheduleCard(account.id, restingCard, "review", new Date(Date.now() + 5 * 86_400_000));
  const stats = await (await engramFor(account)).stats.decks();
  const row = stats.find((deck) => deck.deck_id === spanish);

  await signInWithPassword(page, account, "/decks");
  const item = deckItem("Spanish verbs");
  await item.getByRole("list", { name: "Due today" }).waitFor();
  const shown = (await item.getByRole("list", { name: "Due today" }).innerText()).replace(/\s+/g, " ").trim();
  expect(shown).toBe(`${row?.new_today} new ${row?.learning_today} learning ${row?.review_today} review`);
  expect(shown).toBe("5 new 0 learning 1 review");
  // Nothing due: no Study button that would open an empty session, but words saying so.
  expect(await deckItem("Resting deck").getByText("Nothing due").isVisible()).toBe(true);
  expect(
    await deckItem("Resting deck")
      .getByRole("link", { name: /^Study/ })
      .count(),
  ).toBe(0);
  await screenshot(page, "decks-counts");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  expect(await item.getByRole("link", { name: "Spanish verbs", exact: true }).getAttribute("href")).toBe(
    `/decks/${spanish}`,
  );
  await item.getByRole("link", { name: "Study Spanish verbs" }).click();
  await page.waitForURL((url) => url.pathname === `/decks/${spanish}/study`);
  // The session gives exactly what the list said.
  await counts(page).waitFor();
  expect((await countsText(page)).toLowerCase()).toBe(shown);
  await page.goBack();
  await deckItem("Spanish verbs").getByRole("link", { name: "Spanish verbs", exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/decks/${spanish}`);
});

test("a member who joined by invite leaves the deck after confirming; the owner keeps it", async () => {
  const owner = await newAccount("owner");
  const deckId = await seedDeck(owner.id, "Shared history", basicNotes(2, "Date"));
  const invite = await (await engramFor(owner)).invites.create(deckId, { role: "editor" });
  await (await engramFor(account)).invites.accept(invite.token);

  await signInWithPassword(page, account, "/decks");
  const item = deckItem("Shared history");
  await item.getByText("Editor").waitFor();
  // A member studies the deck too: its new cards are counted for them.
  await item.getByRole("list", { name: "Due today" }).getByText("2 new").waitFor();
  expect(await item.getByRole("button", { name: /Rename|Delete/ }).count()).toBe(0);

  await item.getByRole("button", { name: "Leave Shared history" }).click();
  const dialog = page.getByRole("dialog", { name: "Leave “Shared history”?" });
  await dialog.waitFor();
  await screenshot(page, "deck-leave-dialog");
  await dialog.getByRole("button", { name: "Stay" }).click();
  await dialog.waitFor({ state: "hidden" });
  expect(await item.isVisible()).toBe(true);

  await item.getByRole("button", { name: "Leave Shared history" }).click();
  await dialog.getByRole("button", { name: "Leave deck" }).click();
  await dialog.waitFor({ state: "hidden" });
  await item.waitFor({ state: "detached" });
  await page.getByText("No decks yet").waitFor();

  const admin = adminClient();
  const { data: members } = await admin.from("deck_members").select("user_id, role").eq("deck_id", deckId);
  expect(members).toEqual([{ user_id: owner.id, role: "owner" }]);
});

test("the session survives a reload, kept in cookies", async () => {
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();
  const cookies = await page.context().cookies();
  expect(cookies.some((cookie) => /^sb-.+-auth-token/.test(cookie.name))).toBe(true);
  const { origins } = await page.context().storageState();
  const stored = origins.flatMap((origin) => origin.localStorage.map((entry) => entry.name));
  expect(stored.filter((name) => name.startsWith("sb-"))).toEqual([]);

  await page.reload();
  await decksHeading(page).waitFor();
  expect(new URL(page.url()).pathname).toBe("/decks");
});

test("a signed-out visitor to the decks is sent to sign in and brought back after", async () => {
  await page.goto("/decks");
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  const url = new URL(page.url());
  expect(url.pathname).toBe("/sign-in");
  expect(url.searchParams.get("next")).toBe("/decks");
  expect(await page.getByText("Your session ended").count()).toBe(0);

  await signInWithPassword(page, account, "");
  await decksHeading(page).waitFor();
  expect(new URL(page.url()).pathname).toBe("/decks");
});

test("the owner's rename shows up in a member's open deck list without a reload", async () => {
  const owner = await newAccount("owner");
  const admin = adminClient();
  const { data: deck, error } = await admin
    .from("decks")
    .insert({ owner_id: owner.id, name: "Neuroanatomy" })
    .select("id")
    .single();
  if (error || !deck) throw error ?? new Error("no deck");
  expect(
    (await admin.from("deck_members").insert({ deck_id: deck.id, user_id: account.id, role: "editor" })).error,
  ).toBeNull();

  await signInWithPassword(page, account, "/decks");
  await deckItem("Neuroanatomy").waitFor();

  // The owner renames it in their own browser; the member's list follows.
  const ownerPage = await openPage(browser());
  await signInWithPassword(ownerPage, owner, "/decks");
  await ownerPage.getByRole("button", { name: "Rename Neuroanatomy" }).click();
  const dialog = ownerPage.getByRole("dialog", { name: "Rename “Neuroanatomy”" });
  await dialog.getByLabel("Deck name", { exact: true }).fill("Clinical neuroanatomy");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await dialog.waitFor({ state: "hidden" });
  await deckItem("Clinical neuroanatomy").waitFor({ timeout: 5000 });
  expect(await deckList().getByRole("listitem", { name: "Neuroanatomy", exact: true }).count()).toBe(0);
  await screenshot(page, "decks-live-rename");
});
