import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { noteList, setDisplayName } from "./deck-fixtures.js";
import { adminClient, newAccount, uniqueEmail } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { nextEmail } from "./support/mailbox.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
const phone = { viewport: { width: 390, height: 844 } };

/** An invite made straight in the database, in whatever state a test needs. */
async function seedInvite(
  deckId: string,
  createdBy: string,
  fields: { expires_at?: string; max_uses?: number; uses?: number; revoked_at?: string } = {},
): Promise<string> {
  const { data, error } = await adminClient()
    .from("deck_invites")
    .insert({ deck_id: deckId, created_by: createdBy, role: "viewer", ...fields })
    .select("token")
    .single();
  if (error || !data) throw error ?? new Error("no invite");
  return data.token;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });

describe("invite links", () => {
  test("the owner makes a link; a signed-out visitor previews it, signs up, comes back, joins, and the owner sees them arrive", async () => {
    const owner = await newAccount("owner");
    await setDisplayName(owner.id, "Olga Owner");
    const deckId = await seedDeck(owner.id, "Italian verbs", [
      { front: "essere", back: "to be" },
      { front: "avere", back: "to have" },
      { front: "andare", back: "to go" },
    ]);
    await adminClient().from("decks").update({ description: "The thirty verbs you meet first." }).eq("id", deckId);

    const ownerPage = await openPage(browser(), { permissions: ["clipboard-read", "clipboard-write"] });
    await signInWithPassword(ownerPage, owner, `/decks/${deckId}/settings`);
    await heading(ownerPage, "Deck settings").waitFor();
    const members = ownerPage.getByRole("list", { name: "Members" }).getByRole("listitem");
    await members.first().waitFor();
    expect(await members.count()).toBe(1);

    await ownerPage.getByLabel("Joins as").selectOption("editor");
    await ownerPage.getByRole("button", { name: "Create invite link" }).click();
    const linkField = ownerPage.getByRole("textbox", { name: "New invite link (editor)" });
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(new RegExp(`^${ownerPage.url().split("/decks")[0]}/invite/[\\w-]+$`));
    await ownerPage.getByRole("status").filter({ hasText: "Link copied" }).waitFor();
    expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const invites = ownerPage.getByRole("list", { name: "Invite links" });
    await invites.getByRole("listitem", { name: "Editor link, active" }).getByText("Used 0 times, no limit").waitFor();
    await screenshot(ownerPage, "deck-settings-invite-created");

    // A stranger with no account opens the link.
    const guest = await openPage(browser());
    await guest.goto(link);
    await heading(guest, "Italian verbs").waitFor();
    expect(await guest.getByText("You're invited to join").count()).toBe(1);
    expect(await guest.getByText("The thirty verbs you meet first.").count()).toBe(1);
    expect(await guest.getByText("Owner: Olga Owner").count()).toBe(1);
    expect(await guest.getByText("3 notes").count()).toBe(1);
    expect(await guest.getByText("You join as an editor").count()).toBe(1);
    await screenshot(guest, "invite-preview");
    expect(await axeViolationsInBothThemes(guest)).toEqual([]);

    // Sign up, confirm by email, and land back on the invite.
    await guest.getByRole("link", { name: "Sign up to join" }).click();
    const email = uniqueEmail("invitee");
    await guest.getByLabel("Email", { exact: true }).fill(email);
    await guest.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await guest.getByRole("button", { name: "Create account" }).click();
    await guest.getByRole("heading", { name: "Check your email" }).waitFor();
    const mail = await nextEmail(email);
    await guest.goto(mail.link);
    const join = guest.getByRole("button", { name: "Join deck" });
    await join.waitFor();
    expect(new URL(guest.url()).pathname).toBe(new URL(link).pathname);
    await screenshot(guest, "invite-signed-in");

    await join.click();
    await noteList(guest).waitFor();
    expect(new URL(guest.url()).pathname).toBe(`/decks/${deckId}`);
    // An editor: the deck screen offers adding notes.
    await guest.getByRole("button", { name: "Add note" }).waitFor();

    // The owner's members list shows the newcomer without a reload.
    await members
      .nth(1)
      .locator(".member-name")
      .getByText(email.split("@")[0] as string, { exact: true })
      .waitFor();
    expect(
      await members
        .nth(1)
        .getByRole("combobox", { name: /Role for/ })
        .inputValue(),
    ).toBe("editor");
    // …and the link they used counts them.
    await invites.getByRole("listitem", { name: "Editor link, active" }).getByText("Used 1 time, no limit").waitFor();

    // The link now reads as used once; opening it again says the guest is in already.
    await guest.goto(link);
    await heading(guest, "You're already in this deck").waitFor();
    await screenshot(guest, "invite-already-member");
    expect(await axeViolationsInBothThemes(guest)).toEqual([]);
    await guest.getByRole("link", { name: "Open deck" }).click();
    await noteList(guest).waitFor();
  });

  test("revoked, expired, used-up and unknown links each say so and whom to ask", async () => {
    const owner = await newAccount("owner");
    await setDisplayName(owner.id, "Olga Owner");
    const deckId = await seedDeck(owner.id, "Closed deck", [{ front: "a", back: "b" }]);
    const revoked = await seedInvite(deckId, owner.id, { revoked_at: new Date().toISOString() });
    const expired = await seedInvite(deckId, owner.id, { expires_at: new Date(Date.now() - 86_400_000).toISOString() });
    const usedUp = await seedInvite(deckId, owner.id, { max_uses: 1, uses: 1 });

    const page = await openPage(browser());
    const cases = [
      { token: revoked, title: "This invite link was revoked", ask: "Ask Olga Owner for a new link." },
      { token: expired, title: "This invite link has expired", ask: "Ask Olga Owner for a new link." },
      { token: usedUp, title: "This invite link has been used up", ask: "Ask Olga Owner for a new link." },
      { token: "no-such-invite-token", title: "This invite link doesn't work", ask: "Ask the person who sent it" },
    ];
    for (const { token, title, ask } of cases) {
      await page.goto(`/invite/${token}`);
      await heading(page, title).waitFor();
      expect(await page.getByText(ask).count()).toBe(1);
      expect(await page.getByRole("link", { name: /Sign (up|in) to join/ }).count()).toBe(0);
      const name = title.replace(/^This invite link /, "invite-").replace(/[^a-z-]+/gi, "-");
      await screenshot(page, name.toLowerCase());
      expect(await axeViolationsInBothThemes(page)).toEqual([]);
    }

    // A signed-in stranger on a dead link gets no way to join either.
    const stranger = await newAccount("stranger");
    const signedIn = await openPage(browser(), phone);
    await signInWithPassword(signedIn, stranger, `/sign-in?next=${encodeURIComponent(`/invite/${expired}`)}`);
    await heading(signedIn, "This invite link has expired").waitFor();
    expect(await signedIn.getByRole("button", { name: "Join deck" }).count()).toBe(0);
    await signedIn.getByRole("link", { name: "Go to your decks" }).waitFor();
    await screenshot(signedIn, "invite-expired-phone");
  });

  test("at phone width the preview and its sign-in way in fit, and sign-in comes back to join", async () => {
    const owner = await newAccount("owner");
    const deckId = await seedDeck(owner.id, "Phone deck", [{ front: "a", back: "b" }]);
    const token = await seedInvite(deckId, owner.id);
    const visitor = await newAccount("visitor");

    const page = await openPage(browser(), phone);
    await page.goto(`/invite/${token}`);
    await heading(page, "Phone deck").waitFor();
    await screenshot(page, "invite-preview-phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole("link", { name: "Sign in to join" }).click();
    await signInWithPassword(page, visitor, "");
    await page.getByRole("button", { name: "Join deck" }).click();
    await noteList(page).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/decks/${deckId}`);
    // A viewer: no adding notes.
    expect(await page.getByRole("button", { name: "Add note" }).count()).toBe(0);
  });

  test("a deck holds 20 active links at most; revoking one (confirmed) makes room", async () => {
    const owner = await newAccount("owner");
    const member = await newAccount("member");
    await setDisplayName(member.id, "Ben Member");
    const deckId = await seedDeck(owner.id, "Popular deck", [{ front: "a", back: "b" }]);
    await adminClient().from("deck_members").insert({ deck_id: deckId, user_id: member.id, role: "viewer" });
    for (let i = 0; i < 20; i += 1) await seedInvite(deckId, owner.id, { max_uses: 5 });

    const page = await openPage(browser(), phone);
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    const invites = page.getByRole("list", { name: "Invite links" }).getByRole("listitem");
    await invites.nth(19).waitFor();
    const full = "A deck can have 20 active invite links at most.";
    await page.locator(".notice").getByText(full).waitFor();

    await page.getByRole("button", { name: "Create invite link" }).click();
    await page.getByRole("alert").getByText(full).waitFor();
    expect(await page.getByText(full).count()).toBe(1);
    expect(await invites.count()).toBe(20);
    await screenshot(page, "deck-settings-invites-full-phone");

    await invites.first().getByRole("button", { name: "Revoke link" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this invite link?" });
    await dialog.getByText("used 0 of 5").waitFor();
    await dialog.getByRole("button", { name: "Revoke link" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("status").filter({ hasText: "Link revoked." }).waitFor();
    await page.getByRole("listitem", { name: "Viewer link, revoked" }).waitFor();
    // Room again: neither the notice nor the earlier refusal is shown.
    await page.getByText(full).waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Create invite link" }).click();
    await page.getByRole("textbox", { name: /New invite link/ }).waitFor();
    expect(await page.getByRole("listitem", { name: "Viewer link, active" }).count()).toBe(20);
    expect(await axeViolationsInBothThemes(page)).toEqual([]);
  });
});
