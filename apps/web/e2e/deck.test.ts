import { createEngram, EngramError } from "@engram/sdk";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { addMember, noteList, noteRow, visibleFronts } from "./deck-fixtures.js";
import { type Account, adminClient, newAccount, nodeClient } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let owner: Account;

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("deck");
});

const animals = ["cat", "dog", "horse", "cow", "sheep", "goat", "pig", "duck", "goose", "mouse"];
const colours = ["red", "blue", "green", "yellow", "black", "white", "brown", "pink", "grey", "orange"];

/** 30 notes: 10 animals (tag animal), 10 colours (tag colour), 10 cloze sentences (tag grammar); oldest first. */
function thirtyNotes() {
  return [
    ...animals.map((word) => ({ front: `<b>${word}</b>`, back: `the ${word}`, tags: ["animal"] })),
    ...colours.map((word) => ({
      front: word,
      back: `the colour ${word}`,
      tags: ["colour"],
      kind: "basic_reversed" as const,
    })),
    ...animals.map((word) => ({ kind: "cloze" as const, text: `The {{c1::${word}}} sleeps`, tags: ["grammar"] })),
  ];
}

async function openDeck(deckId: string, account: Account = owner, query = "") {
  await signInWithPassword(page, account, `/decks/${deckId}${query}`);
  await noteList(page).waitFor();
}

const summary = () => page.locator(".list-summary");

test("the owner browses, searches, filters and sorts a deck, and the URL keeps the view", async () => {
  const deckId = await seedDeck(owner.id, "Spanish basics", thirtyNotes());
  await openDeck(deckId);
  await page.getByRole("heading", { level: 1, name: "Spanish basics" }).waitFor();
  expect(await page.locator(".deck-facts").textContent()).toContain("30 notes");
  expect(await page.getByRole("link", { name: "Study" }).getAttribute("href")).toBe(`/decks/${deckId}/study`);
  expect(await summary().textContent()).toBe("30 notes");
  // Newest first; markup stripped; a cloze reads as its answer.
  expect((await visibleFronts(page)).slice(0, 2)).toEqual(["The mouse sleeps", "The goose sleeps"]);
  await screenshot(page, "deck-browser");

  await page.getByLabel("Search notes").fill("horse");
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "2 notes match");
  expect(await visibleFronts(page)).toEqual(["The horse sleeps", "horse"]);
  expect(new URL(page.url()).searchParams.get("q")).toBe("horse");

  await page.getByLabel("Search notes").fill("");
  await page.getByLabel("Tag").fill("colour");
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "10 notes match");
  expect(await noteRow(page, "red").getByText("Basic and reversed").isVisible()).toBe(true);

  await page.getByLabel("Tag").fill("");
  await page.getByLabel("Note type").selectOption("cloze");
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "10 notes match");
  await page.getByLabel("Note type").selectOption("basic");
  await page.getByLabel("Order").selectOption("alphabetical");
  await expect.poll(async () => (await visibleFronts(page)).slice(0, 3)).toEqual(["cat", "cow", "dog"]);
  await page.getByLabel("Order").selectOption("oldest");
  await expect.poll(async () => (await visibleFronts(page)).slice(0, 3)).toEqual(["cat", "dog", "horse"]);

  // A reload (or a shared link) shows the same view.
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({ kind: "basic", sort: "oldest" });
  await page.reload();
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "10 notes match");
  expect(await page.getByLabel("Order").inputValue()).toBe("oldest");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // On a phone the filters wrap and the table scrolls sideways, its first columns in view.
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await noteRow(page, "cat").getByRole("checkbox").isVisible()).toBe(true);
  expect(await noteRow(page, "cat").getByRole("button", { name: "cat" }).isVisible()).toBe(true);
  await screenshot(page, "deck-phone");
});

test("an opened note shows its cards with state and due date, and a card is suspended and back", async () => {
  const deckId = await seedDeck(owner.id, "Colours", thirtyNotes().slice(10, 12));
  const admin = adminClient();
  const { data: red } = await admin
    .from("notes")
    .select("id")
    .eq("deck_id", deckId)
    .eq("fields->>front", "red")
    .single();
  const { data: redCards } = await admin
    .from("cards")
    .select("id, ordinal")
    .eq("note_id", red?.id ?? "");
  const reverse = redCards?.find((card) => card.ordinal === 2);
  if (!reverse) throw new Error("no reverse card");
  // The user studied the reverse card: it is in review, due in 12 days.
  const due = new Date(Date.now() + 12 * 86_400_000);
  await admin
    .from("card_states")
    .update({
      state: "review",
      due: due.toISOString(),
      scheduled_days: 12,
      reps: 3,
      last_review: new Date().toISOString(),
    })
    .eq("card_id", reverse.id)
    .eq("user_id", owner.id);

  await openDeck(deckId);
  await noteRow(page, "red").getByRole("button", { name: "red" }).click();
  const table = page.getByRole("table", { name: "Cards of this note" });
  await table.waitFor();
  const rows = table.getByRole("row");
  expect(await rows.nth(1).textContent()).toContain("New");
  expect(await rows.nth(1).textContent()).toContain("Not studied yet");
  expect(await rows.nth(2).textContent()).toContain("Review");
  expect(await rows.nth(2).textContent()).toContain("12 days");
  expect(await rows.nth(2).textContent()).toContain(String(due.getFullYear()));

  const toggle = page.getByRole("checkbox", { name: "Suspend Back → Front" });
  await toggle.check();
  await expect.poll(async () => suspendedOf(reverse.id)).toBe(true);
  await table.getByRole("row").filter({ has: toggle }).getByText("Yes", { exact: true }).waitFor();
  await screenshot(page, "deck-note-opened");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  // A plain click: on a busy machine the first change may still be refetching, and the
  // switch then flips when that lands rather than at once, which `uncheck` treats as failure.
  await toggle.click();
  await expect.poll(async () => suspendedOf(reverse.id)).toBe(false);
  await expect.poll(async () => toggle.isChecked()).toBe(false);

  async function suspendedOf(cardId: string) {
    const { data } = await admin
      .from("card_states")
      .select("suspended")
      .eq("card_id", cardId)
      .eq("user_id", owner.id)
      .single();
    return data?.suspended;
  }
});

test("bulk actions tag, move, suspend and delete the selected notes, and the database holds the result", async () => {
  const deckId = await seedDeck(owner.id, "Mixed", thirtyNotes().slice(0, 10));
  const otherDeckId = await seedDeck(owner.id, "Farm animals", []);
  const admin = adminClient();
  const idOf = async (front: string) =>
    (await admin.from("notes").select("id").eq("deck_id", deckId).eq("fields->>front", `<b>${front}</b>`).single()).data
      ?.id ?? "";
  // Live updates can be held back, as when they arrive late, so the list can show notes someone changed meanwhile.
  let holdLiveUpdates = false;
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (!holdLiveUpdates) socket.send(message);
    });
  });
  await openDeck(deckId, owner, "?sort=oldest");
  expect(await visibleFronts(page)).toEqual(animals);

  // Click cat, shift-click horse: cat, dog, horse.
  await page.getByRole("checkbox", { name: "Select cat" }).click();
  await page.getByRole("checkbox", { name: "Select horse" }).click({ modifiers: ["Shift"] });
  const bar = page.getByRole("region", { name: "Selected notes" });
  await bar.getByText("3 notes selected").waitFor();
  await screenshot(page, "deck-bulk-bar");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await bar.getByRole("button", { name: "Add tags" }).click();
  let dialog = page.getByRole("dialog", { name: "Add tags to 3 notes" });
  await dialog.getByLabel("Tags").fill("farm, pets");
  await dialog.getByRole("button", { name: "Add tags" }).click();
  await page.getByRole("status").filter({ hasText: "Added “farm”, “pets” to 3 notes." }).waitFor();
  const tagsOf = async (front: string) =>
    (await admin.from("notes").select("tags").eq("deck_id", deckId).eq("fields->>front", `<b>${front}</b>`).single())
      .data?.tags;
  expect(await tagsOf("dog")).toEqual(["animal", "farm", "pets"]);
  expect(await tagsOf("cow")).toEqual(["animal"]);
  await noteRow(page, "dog").getByText("pets").waitFor();

  await bar.getByRole("button", { name: "Remove tags" }).click();
  dialog = page.getByRole("dialog", { name: "Remove tags from 3 notes" });
  await dialog.getByLabel("Tags").fill("pets");
  await dialog.getByRole("button", { name: "Remove tags" }).click();
  await page.getByRole("status").filter({ hasText: "Removed “pets” from 3 notes." }).waitFor();
  expect(await tagsOf("horse")).toEqual(["animal", "farm"]);

  await bar.getByRole("button", { name: "Suspend", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Suspended 3 cards of 3 notes." }).waitFor();
  const { data: suspended } = await admin
    .from("card_states")
    .select("card_id")
    .eq("deck_id", deckId)
    .eq("suspended", true);
  expect(suspended).toHaveLength(3);
  await bar.getByRole("button", { name: "Unsuspend" }).click();
  await page.getByRole("status").filter({ hasText: "Unsuspended 3 cards of 3 notes." }).waitFor();
  expect((await admin.from("card_states").select("card_id").eq("deck_id", deckId).eq("suspended", true)).data).toEqual(
    [],
  );

  await bar.getByRole("button", { name: "Move", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Move 3 notes" });
  await dialog.getByLabel("Move to deck").selectOption({ label: "Farm animals" });
  await dialog.getByRole("button", { name: "Move notes" }).click();
  await page.getByRole("status").filter({ hasText: "Moved 3 notes to Farm animals." }).waitFor();
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "7 notes");
  expect(await visibleFronts(page)).toEqual(animals.slice(3));
  expect((await admin.from("notes").select("id").eq("deck_id", otherDeckId)).data).toHaveLength(3);

  // Select all matching (a search for "o" words: cow, goat, goose, mouse… by tag), then delete them.
  await page.getByRole("checkbox", { name: "Select cow" }).click();
  await bar.getByRole("button", { name: "Select all 7 matching" }).click();
  await bar.getByText("7 notes selected").waitFor();
  await page.getByRole("checkbox", { name: "Select pig" }).click();
  await bar.getByText("6 notes selected").waitFor();
  await bar.getByRole("button", { name: "Delete", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Delete 6 notes?" });
  // Someone else edits one of them meanwhile: the delete is refused whole and the list reloads with their change.
  const goat = await idOf("goat");
  holdLiveUpdates = true;
  expect(
    (
      await admin
        .from("notes")
        .update({ tags: ["animal", "edited"] })
        .eq("id", goat)
    ).error,
  ).toBeNull();
  await dialog.getByRole("button", { name: "Delete notes" }).click();
  await dialog
    .getByRole("alert")
    .filter({
      hasText:
        "1 of the 6 notes was changed by others since you loaded them — nothing was changed. Reload and try again.",
    })
    .waitFor();
  expect((await admin.from("notes").select("id").eq("deck_id", deckId)).data).toHaveLength(7);
  // Reloading brings their change into the list behind the dialog (which hides it from the accessibility tree) and keeps the selection.
  await dialog.getByRole("button", { name: "Reload the notes" }).click();
  await page.locator(".bulk-status").filter({ hasText: "Reloaded 6 notes; try again." }).waitFor();
  await page.locator(".note-row").filter({ hasText: "goat" }).getByText("edited", { exact: true }).waitFor();
  expect(await dialog.getByRole("alert").count()).toBe(0);
  holdLiveUpdates = false;
  await dialog.getByRole("button", { name: "Delete notes" }).click();
  await page.getByRole("status").filter({ hasText: "Deleted 6 notes." }).waitFor();
  await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "1 note");
  expect(await visibleFronts(page)).toEqual(["pig"]);
  const left = await admin.from("notes").select("id").eq("deck_id", deckId);
  expect(left.data).toEqual([{ id: await idOf("pig") }]);
});

test("a deck of 2,000 notes shows its total and renders later rows as it scrolls, never all of them", async () => {
  const notes = Array.from({ length: 2000 }, (_, index) => ({
    front: `word ${String(index + 1).padStart(4, "0")}`,
    back: "x",
  }));
  const deckId = await seedDeck(owner.id, "Big deck", notes);
  await openDeck(deckId, owner, "?sort=oldest");
  expect(await summary().textContent()).toBe("2,000 notes");
  expect((await visibleFronts(page))[0]).toBe("word 0001");

  const scroller = page.locator(".note-scroll");
  // Scroll to the end again and again: pages load as the end comes near.
  await expect
    .poll(
      async () => {
        await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
        return (await visibleFronts(page)).includes("word 2000");
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(true);
  const rendered = await noteList(page).locator("tbody.note-row").count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(100);
  await screenshot(page, "deck-big-scrolled");
});

test("a viewer sees the notes and cards read-only, and the server refuses the viewer's writes", async () => {
  const deckId = await seedDeck(owner.id, "Shared colours", thirtyNotes().slice(10, 15));
  const viewer = await newAccount("viewer");
  await addMember(deckId, viewer.id, "viewer");
  await openDeck(deckId, viewer);
  expect(await page.locator(".deck-facts").getByText("Viewer").isVisible()).toBe(true);
  expect(await page.getByRole("checkbox").count()).toBe(0);
  expect(await page.getByRole("button", { name: "Add note" }).count()).toBe(0);
  await noteRow(page, "red").getByRole("button", { name: "red" }).click();
  await page.getByRole("table", { name: "Cards of this note" }).waitFor();
  expect(await page.getByRole("button", { name: /^(Edit|Delete)/ }).count()).toBe(0);
  // Viewers may still suspend their own cards (their schedule is their own).
  expect(await page.getByRole("checkbox", { name: /^Suspend/ }).count()).toBe(2);
  await screenshot(page, "deck-viewer");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  const engram = createEngram(nodeClient());
  await engram.auth.signIn({ email: viewer.email, password: viewer.password });
  const error = await engram.notes
    .create(deckId, { kind: "basic", fields: { front: "a", back: "b" } })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EngramError);
  expect(error).toMatchObject({ code: "permission-denied" });
  const { notes } = await engram.notes.ids(deckId);
  await expect(engram.notes.addTags(notes, ["mine"])).rejects.toMatchObject({ code: "permission-denied" });
  await expect(engram.notes.remove(notes)).rejects.toMatchObject({ code: "permission-denied" });
  expect((await adminClient().from("notes").select("id").eq("deck_id", deckId)).data).toHaveLength(5);
});

test("a private deck of someone else and a deck that does not exist both read as not found", async () => {
  const deckId = await seedDeck(owner.id, "Private notes", [{ front: "secret", back: "x" }]);
  const stranger = await newAccount("stranger");
  await signInWithPassword(page, stranger, `/decks/${deckId}`);
  await page.getByRole("heading", { level: 1, name: "Deck not found" }).waitFor();
  expect(await page.getByText("secret").count()).toBe(0);
  await screenshot(page, "deck-not-found");
  await page.goto(`/decks/${crypto.randomUUID()}`);
  await page.getByRole("heading", { level: 1, name: "Deck not found" }).waitFor();
  await page.getByRole("link", { name: "Back to your decks" }).click();
  await page.getByRole("heading", { level: 1, name: "Your decks" }).waitFor();
});

test("the keyboard reaches everything: / searches, arrows move, Enter opens, X selects, ? lists the keys", async () => {
  const deckId = await seedDeck(owner.id, "Keys", thirtyNotes().slice(0, 5));
  await openDeck(deckId, owner, "?sort=oldest");
  await page.keyboard.press("/");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("note-search");
  await page.keyboard.press("Escape");

  await noteRow(page, "cat").getByRole("button", { name: "cat" }).focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("horse");
  await page.keyboard.press("Enter");
  await page.getByRole("table", { name: "Cards of this note" }).waitFor();
  expect(await noteRow(page, "horse").getByRole("button", { name: "horse" }).getAttribute("aria-expanded")).toBe(
    "true",
  );
  await page.keyboard.press("x");
  await page.getByRole("region", { name: "Selected notes" }).getByText("1 note selected").waitFor();
  await page.keyboard.press("ArrowUp");
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("dog");

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await help.waitFor();
  expect(await help.getByRole("row").count()).toBeGreaterThan(5);
  expect(await help.textContent()).toContain("Search the notes");
  await screenshot(page, "deck-shortcuts");
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "hidden" });
});
