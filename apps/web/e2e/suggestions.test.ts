import { createEngram } from "@engram/sdk";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { addMember, noteRow, setDisplayName } from "./deck-fixtures.js";
import { type Account, adminClient, newAccount, nodeClient } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

// Suggestions (docs/product.md §4, "Suggestions"): viewers propose, the
// deck's owner and editors review, both sides see it happen live.

const browser = browserPerFile();

async function sdkFor(account: Account) {
  const engram = createEngram(nodeClient());
  await engram.auth.signIn({ email: account.email, password: account.password });
  return engram;
}

const badge = (page: Page) => page.locator(".suggestions-link .suggestions-count");

test("a viewer's edit reaches the owner live, who edits and accepts it, and the viewer sees it accepted", async () => {
  const [olga, vic] = [await newAccount("olga"), await newAccount("vic")];
  await setDisplayName(olga.id, "Olga");
  await setDisplayName(vic.id, "Vic");
  const deckId = await seedDeck(olga.id, "Cardiology", [{ front: "Heart", back: "A pump" }]);
  await addMember(deckId, vic.id, "viewer");

  const olgaPage = await openPage(browser());
  const vicPage = await openPage(browser());
  await signInWithPassword(olgaPage, olga, `/decks/${deckId}`);
  await olgaPage.getByRole("link", { name: "Suggestions" }).waitFor();
  expect(await badge(olgaPage).count()).toBe(0);

  // The viewer has no editing, only suggesting.
  await signInWithPassword(vicPage, vic, `/decks/${deckId}`);
  await noteRow(vicPage, "Heart").getByRole("button", { name: "Heart" }).click();
  expect(await vicPage.getByRole("button", { name: "Edit", exact: true }).count()).toBe(0);
  await vicPage.getByRole("button", { name: "Suggest an edit" }).click();
  const dialog = vicPage.getByRole("dialog", { name: "Suggest an edit" });
  await dialog.waitFor();
  const back = dialog.getByRole("textbox", { name: "Back", exact: true });
  await back.click();
  await vicPage.keyboard.press("End");
  await vicPage.keyboard.type(" made of muscle");
  await dialog.getByRole("textbox", { name: "Why (shown to the maintainers)" }).fill("The pump is a muscle.");
  expect(await axeViolationsInBothThemes(vicPage)).toEqual([]);
  await dialog.getByRole("button", { name: "Send suggestion" }).click();
  await dialog.waitFor({ state: "hidden" });
  await vicPage.getByText("Suggestion sent.").waitFor();

  // The owner's badge counts it without a reload; the queue shows who, why and the diff against the note now.
  await badge(olgaPage).filter({ hasText: "1" }).waitFor({ timeout: 10_000 });
  await olgaPage.getByRole("link", { name: /Suggestions/ }).click();
  const card = olgaPage.getByRole("article", { name: "Edit by Vic" });
  await card.waitFor();
  await card.getByText("The pump is a muscle.").waitFor();
  expect(await card.locator("ins").textContent()).toContain("made of muscle");
  await screenshot(olgaPage, "suggestions-review-queue");
  expect(await axeViolationsInBothThemes(olgaPage)).toEqual([]);

  // Edit, then accept.
  await card.getByRole("button", { name: "Edit, then accept" }).click();
  const editor = olgaPage.getByRole("dialog", { name: "Edit, then accept" });
  const editedBack = editor.getByRole("textbox", { name: "Back", exact: true });
  await editedBack.click();
  await olgaPage.keyboard.press("End");
  await olgaPage.keyboard.type(" (cardiac muscle)");
  await editor.getByRole("button", { name: "Accept with these changes" }).click();
  await olgaPage.getByText("Accepted 1 suggestion.").waitFor();
  await olgaPage.getByText("No suggestions are waiting.").waitFor();

  // The viewer's own list says accepted, live; the note changed, authored by the owner with the viewer.
  await vicPage.goto(new URL("/suggestions", vicPage.url()).href);
  await vicPage.getByRole("heading", { level: 1, name: "My suggestions" }).waitFor();
  await vicPage.locator("[data-status=accepted]").waitFor({ timeout: 10_000 });
  await screenshot(vicPage, "suggestions-mine");
  expect(await axeViolationsInBothThemes(vicPage)).toEqual([]);
  const { data: note } = await adminClient()
    .from("notes")
    .select("id, fields, updated_by, co_author_id")
    .eq("deck_id", deckId)
    .single();
  expect(note).toMatchObject({
    fields: { front: "Heart", back: "<p>A pump made of muscle (cardiac muscle)</p>" },
    updated_by: olga.id,
    co_author_id: vic.id,
  });
});

test("a rejection's reason reaches the suggester, and a note changed since shows its three states", async () => {
  const [olga, vic] = [await newAccount("olga"), await newAccount("vic")];
  await setDisplayName(vic.id, "Vic");
  const deckId = await seedDeck(olga.id, "Neurology", [{ front: "Brain", back: "CNS" }]);
  await addMember(deckId, vic.id, "viewer");
  const vicSdk = await sdkFor(vic);
  const olgaSdk = await sdkFor(olga);
  const [note] = (await olgaSdk.notes.list(deckId)).notes;
  if (!note) throw new Error("no note");
  await vicSdk.suggestions.suggest({
    action: "edit",
    noteId: note.id,
    fields: { front: "Brain", back: "Central nervous system" },
    rationale: "Spell it out",
  });
  await olgaSdk.notes.update(note.id, note.version, {
    kind: "basic",
    fields: { front: "The brain", back: "CNS" },
    tags: [],
  });

  const vicPage = await openPage(browser());
  await signInWithPassword(vicPage, vic, "/suggestions");
  await vicPage.locator("[data-status=pending]").waitFor();

  const olgaPage = await openPage(browser());
  await signInWithPassword(olgaPage, olga, `/decks/${deckId}/suggestions`);
  const card = olgaPage.getByRole("article", { name: "Edit by Vic" });
  await card.getByText("The note changed since this was suggested.").waitFor();
  const states = card.getByRole("table", { name: "Back: when suggested, now, and suggested" });
  expect(await states.getByRole("row").allTextContents()).toEqual([
    "When suggestedCNS",
    "NowCNS",
    "SuggestedCentral nervous system",
  ]);
  await screenshot(olgaPage, "suggestions-changed-since");

  await card.getByRole("button", { name: "Reject" }).click();
  const dialog = olgaPage.getByRole("dialog", { name: "Reject suggestion" });
  await dialog.getByRole("textbox", { name: "Reason (optional)" }).fill("CNS is the usual term here.");
  expect(await axeViolationsInBothThemes(olgaPage)).toEqual([]);
  await dialog.getByRole("button", { name: "Reject" }).click();
  await olgaPage.getByText("Rejected 1 suggestion.").waitFor();

  await vicPage.locator("[data-status=rejected]").waitFor({ timeout: 10_000 });
  await vicPage.getByText("CNS is the usual term here.").waitFor();
});

test("fifty suggestions are accepted at once", async () => {
  const olga = await newAccount("olga");
  const viewers = [await newAccount("v1"), await newAccount("v2"), await newAccount("v3")];
  const deckId = await seedDeck(olga.id, "Bulk", []);
  for (const viewer of viewers) await addMember(deckId, viewer.id, "viewer");
  // At most 20 a minute per author: three authors share the fifty.
  for (const [index, viewer] of viewers.entries()) {
    const sdk = await sdkFor(viewer);
    const count = index < 2 ? 20 : 10;
    for (let i = 0; i < count; i += 1) {
      await sdk.suggestions.suggest({
        action: "create",
        deckId,
        kind: "basic",
        fields: { front: `Term ${index}-${i}`, back: "Meaning" },
      });
    }
  }

  const page = await openPage(browser());
  await signInWithPassword(page, olga, `/decks/${deckId}/suggestions`);
  await page.getByText("50 waiting").waitFor();
  await page.getByRole("checkbox", { name: "Select all" }).check();
  await page.getByText("50 waiting, 50 selected").waitFor();
  await page.getByRole("button", { name: "Accept selected" }).click();
  await page.getByText("Accepted 50 suggestions.").waitFor({ timeout: 15_000 });
  await page.getByText("No suggestions are waiting.").waitFor();
  const { count } = await adminClient()
    .from("notes")
    .select("id", { count: "exact", head: true })
    .eq("deck_id", deckId);
  expect(count).toBe(50);
});
