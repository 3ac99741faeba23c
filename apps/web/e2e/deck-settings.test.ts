import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { addMember, noteList, setDisplayName } from "./deck-fixtures.js";
import { adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();

const settingsHeading = (page: Page) => page.getByRole("heading", { level: 1, name: "Deck settings" });
const memberRows = (page: Page) => page.getByRole("list", { name: "Members" }).getByRole("listitem");

async function storedDeck(deckId: string) {
  const { data, error } = await adminClient()
    .from("decks")
    .select("name, description, new_per_day, reviews_per_day, is_public")
    .eq("id", deckId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

async function leechSettings(deckId: string) {
  const { data, error } = await adminClient()
    .from("decks")
    .select("leech_threshold, leech_action")
    .eq("id", deckId)
    .single();
  if (error) throw error;
  return data;
}

async function burySettings(deckId: string) {
  const { data, error } = await adminClient()
    .from("decks")
    .select("bury_new, bury_reviews, bury_interday_learning")
    .eq("id", deckId)
    .single();
  if (error) throw error;
  return data;
}

async function roleOf(deckId: string, userId: string) {
  const { data, error } = await adminClient()
    .from("deck_members")
    .select("role")
    .eq("deck_id", deckId)
    .eq("user_id", userId)
    .maybeSingle();
  if (error) throw error;
  return data?.role ?? null;
}

/** A deck owned by Olga with Ben in it as `role`, both named. */
async function sharedDeck(role: "editor" | "viewer") {
  const owner = await newAccount("owner");
  const member = await newAccount("member");
  await setDisplayName(owner.id, "Olga Owner");
  await setDisplayName(member.id, "Ben Member");
  const deckId = await seedDeck(owner.id, "Shared biology", [{ front: "cell", back: "the unit of life" }]);
  await addMember(deckId, member.id, role);
  return { owner, member, deckId };
}

describe("deck settings", () => {
  test("a bad daily limit is explained by its field and changes nothing; good values are saved and announced", async () => {
    const owner = await newAccount("owner");
    const deckId = await seedDeck(owner.id, "Chemistry", [{ front: "H", back: "hydrogen" }]);
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}`);
    await noteList(page).waitFor();
    await page.locator(".deck-toolbar").getByRole("link", { name: "Settings" }).click();
    await settingsHeading(page).waitFor();

    const newPerDay = page.getByRole("spinbutton", { name: "New cards per day" });
    await newPerDay.fill("10000");
    await page.getByLabel("Deck name").fill("Chemistry basics");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.locator(".field-error").getByText("Use at most 9999.").waitFor();
    expect(await newPerDay.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").filter({ hasText: "Use at most 9999." }).count()).toBe(1);
    expect(await storedDeck(deckId)).toMatchObject({ name: "Chemistry", new_per_day: null });
    await screenshot(page, "deck-settings-invalid");

    await newPerDay.fill("15");
    await page.getByLabel("Description").fill("Elements and bonds.");
    await page.getByRole("checkbox", { name: "Public deck" }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    expect(await storedDeck(deckId)).toEqual({
      name: "Chemistry basics",
      description: "Elements and bonds.",
      new_per_day: 15,
      reviews_per_day: null,
      is_public: true,
    });
    expect(await page.locator(".settings-deck-name").textContent()).toBe("Chemistry basics");
    expect(await page.getByRole("spinbutton", { name: "New cards per day" }).inputValue()).toBe("15");
    expect(await page.locator(".field-error").count()).toBe(0);

    await screenshot(page, "deck-settings-owner");
    expect(await axeViolationsInBothThemes(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "light" });
    await screenshot(page, "deck-settings-owner-phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("the owner sets when a card becomes a leech and what happens then; a viewer sees it read-only", async () => {
    const { owner, member, deckId } = await sharedDeck("viewer");
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();
    const leeches = page.getByRole("group", { name: "Leeches", exact: true });
    const threshold = leeches.getByRole("spinbutton", { name: "Leech threshold" });
    expect(await threshold.inputValue()).toBe("8");
    expect(await leeches.getByRole("radio", { name: "Suspend the card" }).isChecked()).toBe(true);

    await threshold.fill("0");
    await page.getByRole("button", { name: "Save changes" }).click();
    await leeches.locator(".field-error").getByText("Use 1 or more.").waitFor();
    expect(await threshold.getAttribute("aria-invalid")).toBe("true");
    expect(await leechSettings(deckId)).toEqual({ leech_threshold: 8, leech_action: "suspend" });

    await threshold.fill("5");
    await leeches.getByRole("radio", { name: "Tag only" }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    expect(await leechSettings(deckId)).toEqual({ leech_threshold: 5, leech_action: "tag_only" });
    await leeches.scrollIntoViewIfNeeded();
    await screenshot(page, "deck-settings-leeches");

    const viewerPage = await openPage(browser());
    await signInWithPassword(viewerPage, member, `/decks/${deckId}/settings`);
    const seen = viewerPage.getByRole("group", { name: "Leeches", exact: true });
    await seen.waitFor();
    const seenThreshold = seen.getByRole("spinbutton", { name: "Leech threshold" });
    expect(await seenThreshold.inputValue()).toBe("5");
    expect(await seenThreshold.isDisabled()).toBe(true);
    expect(await seen.getByRole("radio", { name: "Tag only" }).isChecked()).toBe(true);
    expect(await seen.getByRole("radio", { name: "Suspend the card" }).isDisabled()).toBe(true);
    expect(await axeViolationsInBothThemes(viewerPage)).toEqual([]);
  });

  test("the owner chooses which siblings are buried; a viewer sees the choice read-only", async () => {
    const { owner, member, deckId } = await sharedDeck("viewer");
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();
    const burying = page.getByRole("group", { name: "Burying", exact: true });
    const box = (name: string) => burying.getByRole("checkbox", { name });
    expect(await box("Bury new siblings").isChecked()).toBe(true);
    expect(await box("Bury review siblings").isChecked()).toBe(true);
    expect(await box("Bury interday learning siblings").isChecked()).toBe(false);

    await box("Bury review siblings").uncheck();
    await box("Bury interday learning siblings").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    expect(await burySettings(deckId)).toEqual({ bury_new: true, bury_reviews: false, bury_interday_learning: true });
    await burying.scrollIntoViewIfNeeded();
    await screenshot(page, "deck-settings-burying");

    const viewerPage = await openPage(browser());
    await signInWithPassword(viewerPage, member, `/decks/${deckId}/settings`);
    const seen = viewerPage.getByRole("group", { name: "Burying", exact: true });
    await seen.waitFor();
    const seenBox = (name: string) => seen.getByRole("checkbox", { name });
    expect(await seenBox("Bury new siblings").isChecked()).toBe(true);
    expect(await seenBox("Bury review siblings").isChecked()).toBe(false);
    expect(await seenBox("Bury interday learning siblings").isChecked()).toBe(true);
    expect(await seenBox("Bury new siblings").isDisabled()).toBe(true);
  });

  test("the member's deck screen follows a role change and then their removal, without a reload", async () => {
    const { owner, member, deckId } = await sharedDeck("editor");
    const memberPage = await openPage(browser());
    await signInWithPassword(memberPage, member, `/decks/${deckId}`);
    await noteList(memberPage).waitFor();
    const addNote = memberPage.getByRole("button", { name: "Add note" });
    await addNote.waitFor();

    const ownerPage = await openPage(browser());
    await signInWithPassword(ownerPage, owner, `/decks/${deckId}/settings`);
    await settingsHeading(ownerPage).waitFor();
    const ben = memberRows(ownerPage).filter({ hasText: "Ben Member" });
    await ben.waitFor();
    await ben.getByRole("combobox", { name: "Role for Ben Member" }).selectOption("viewer");
    await ownerPage.getByRole("status").filter({ hasText: "Ben Member is now a viewer." }).waitFor();
    expect(await roleOf(deckId, member.id)).toBe("viewer");

    // The member's editing controls go, and the role shown with the deck changes.
    await addNote.waitFor({ state: "detached" });
    await memberPage.locator(".deck-facts").getByText("Viewer").waitFor();

    await ben.getByRole("button", { name: "Remove Ben Member" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "Remove Ben Member?" });
    await dialog.waitFor();
    await screenshot(ownerPage, "deck-settings-remove-member");
    await dialog.getByRole("button", { name: "Remove from deck" }).click();
    await dialog.waitFor({ state: "detached" });
    await ownerPage.getByRole("status").filter({ hasText: "Ben Member was removed from the deck." }).waitFor();
    expect(await memberRows(ownerPage).count()).toBe(1);

    await memberPage.getByRole("heading", { level: 1, name: "You no longer have access to this deck" }).waitFor();
    await screenshot(memberPage, "deck-access-lost");
    expect(await axeViolationsInBothThemes(memberPage)).toEqual([]);
    await memberPage.getByRole("link", { name: "Go to your decks" }).click();
    await decksHeading(memberPage).waitFor();
  });

  test("the owner hands the deck to a member and can then leave it", async () => {
    const { owner, member, deckId } = await sharedDeck("viewer");
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();
    // Owners cannot leave: the way out is handing over.
    expect(await page.getByRole("button", { name: "Leave deck" }).count()).toBe(0);

    await memberRows(page)
      .filter({ hasText: "Ben Member" })
      .getByRole("button", { name: /Make owner/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Make Ben Member the owner?" });
    await dialog.getByText("They become the owner; you become an editor.").waitFor();
    await screenshot(page, "deck-settings-transfer");
    await dialog.getByRole("button", { name: "Make Ben Member the owner" }).click();
    await dialog.waitFor({ state: "detached" });

    // Now an editor: the settings read-only, and a way to leave.
    await page.locator(".settings-deck .role").getByText("Editor").waitFor();
    expect(await page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await roleOf(deckId, member.id)).toBe("owner");
    expect(await roleOf(deckId, owner.id)).toBe("editor");

    await page.getByRole("button", { name: "Leave deck" }).click();
    const leave = page.getByRole("dialog", { name: "Leave “Shared biology”?" });
    await leave.getByRole("button", { name: "Leave deck" }).click();
    await decksHeading(page).waitFor();
    expect(await roleOf(deckId, owner.id)).toBeNull();
    expect(await page.getByRole("link", { name: "Shared biology" }).count()).toBe(0);
  });

  test("deleting asks for the deck's name typed out, then goes to the deck list", async () => {
    const owner = await newAccount("owner");
    const deckId = await seedDeck(owner.id, "Old notes", [{ front: "x", back: "y" }]);
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();

    await page.getByRole("button", { name: "Delete deck" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete “Old notes”?" });
    await dialog.waitFor();
    const confirm = dialog.getByRole("button", { name: "Delete deck for everyone" });
    await dialog.getByLabel("Deck name").fill("Old note");
    await confirm.click();
    await dialog.getByText("Type “Old notes” exactly as it is written.").waitFor();
    expect(await storedDeck(deckId)).not.toBeNull();
    await screenshot(page, "deck-settings-delete");
    expect(await axeViolationsInBothThemes(page)).toEqual([]);

    await dialog.getByLabel("Deck name").fill("Old notes");
    await confirm.click();
    await decksHeading(page).waitFor();
    expect(new URL(page.url()).pathname).toBe("/decks");
    expect(await storedDeck(deckId)).toBeNull();
  });

  test("a viewer sees the settings read-only, with the members, export and a way to leave", async () => {
    const { member, deckId } = await sharedDeck("viewer");
    await adminClient().from("decks").update({ new_per_day: 12 }).eq("id", deckId);
    const page = await openPage(browser());
    await signInWithPassword(page, member, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();

    await page.getByText("Only the owner changes these settings.").waitFor();
    expect(await page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await page.getByRole("textbox").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Invite links" }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Danger zone" }).count()).toBe(0);
    expect(await page.getByText("12 (this deck's limit)").count()).toBe(1);
    // The viewer's own limit, once their profile has loaded.
    await page.getByText("200 (your own daily limit)").waitFor();
    await memberRows(page).nth(1).waitFor();
    expect(await page.getByRole("combobox").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Remove|Make owner/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Export" }).waitFor();
    await page.getByRole("button", { name: "Leave deck" }).waitFor();

    await screenshot(page, "deck-settings-viewer");
    expect(await axeViolationsInBothThemes(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "light" });
    await screenshot(page, "deck-settings-viewer-phone");
  });
});
