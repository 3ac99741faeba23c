/**
 * The note editor, opened from the deck screen: adding the three note types by
 * keyboard, formatting, media by picker and paste, the rules beside each field,
 * and editing a studied note without touching its schedule.
 */
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { redPng, silentWav } from "./support/media.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;
let deckId: string;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("editor");
  deckId = await seedDeck(account.id, "Geography", []);
});

const dialog = (name: "Add note" | "Edit note") => page.getByRole("dialog", { name });
const field = (scope: Locator, label: string) => scope.getByRole("textbox", { name: label, exact: true });
const focusedLabel = () =>
  page.evaluate(() => {
    const id = document.activeElement?.getAttribute("aria-labelledby");
    return id ? document.getElementById(id)?.textContent : document.activeElement?.tagName;
  });

async function openAddDialog(): Promise<Locator> {
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = dialog("Add note");
  await editor.waitFor();
  return editor;
}

async function notesInDeck() {
  const { data, error } = await adminClient()
    .from("notes")
    .select("id, kind, fields, tags, cards(ordinal)")
    .eq("deck_id", deckId)
    .order("created_at");
  if (error) throw error;
  return data ?? [];
}

async function press(key: string, times = 1) {
  for (let count = 0; count < times; count += 1) await page.keyboard.press(key);
}

test("a user adds basic, reversed and cloze notes with the keyboard alone", async () => {
  const editor = await openAddDialog();
  // The first field has the focus, ready to type, as in Anki's Add window.
  await expect.poll(focusedLabel).toBe("Front");
  await page.keyboard.type("Capital of France");
  await press("Tab", 2); // past the Back field's toolbar (one tab stop) into the field
  expect(await focusedLabel()).toBe("Back");
  await page.keyboard.type("Paris");
  await press("Tab");
  await page.keyboard.type("geography europe ");
  await editor.getByRole("list", { name: "Tags on this note" }).getByText("europe").waitFor();
  await screenshot(page, "note-editor-add-basic");
  await press("Control+Enter");

  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  // Cleared for the next note, type and tags kept, the first field focused.
  await expect.poll(focusedLabel).toBe("Front");
  expect(await field(editor, "Front").textContent()).toBe("");
  expect(await editor.getByRole("list", { name: "Tags on this note" }).textContent()).toContain("geography");
  expect(await notesInDeck()).toMatchObject([
    {
      kind: "basic",
      fields: { front: "<p>Capital of France</p>", back: "<p>Paris</p>" },
      tags: ["geography", "europe"],
      cards: [{ ordinal: 1 }],
    },
  ]);

  // Basic and reversed: back to the note type (two steps up), arrow to the next type.
  await press("Shift+Tab", 2);
  await press("ArrowRight");
  expect(await editor.getByRole("radio", { name: "Basic and reversed" }).isChecked()).toBe(true);
  await press("Tab", 2);
  await page.keyboard.type("Capital of Italy");
  await press("Tab", 2);
  await page.keyboard.type("Rome");
  await editor
    .getByRole("listitem", { name: "Card 2: back → front" })
    .getByRole("figure", { name: "Front" })
    .getByText("Rome")
    .waitFor();
  expect(await editor.locator(".card-preview-item").count()).toBe(2);
  await press("Control+Enter");
  await expect.poll(async () => (await notesInDeck()).length).toBe(2);

  // Cloze: Ctrl+Shift+C twice makes c1 and c2. The status still says "Note added" from the
  // first note, so wait for what the second save does last: the first field takes the focus.
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  await expect.poll(focusedLabel).toBe("Front");
  await press("Shift+Tab", 2);
  await press("ArrowRight");
  await field(editor, "Text").waitFor();
  await press("Tab", 2);
  expect(await focusedLabel()).toBe("Text");
  await page.keyboard.type("Paris is the capital of France");
  await press("Shift+ArrowLeft", 6);
  await press("Control+Shift+C");
  await press("Home");
  await press("Shift+ArrowRight", 5);
  await press("Control+Shift+C");
  expect(await field(editor, "Text").textContent()).toBe("{{c2::Paris}} is the capital of {{c1::France}}");
  // Each card hides its own deletion on the front.
  const preview = editor.getByRole("region", { name: /Preview/ });
  await preview.getByRole("listitem", { name: "Card 2 (c2)" }).getByText("[...] is the capital of France").waitFor();
  await preview.getByRole("listitem", { name: "Card 1 (c1)" }).getByText("Paris is the capital of [...]").waitFor();
  expect(await editor.locator(".card-preview-item").count()).toBe(2);
  await screenshot(page, "note-editor-add-cloze");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  expect(await field(editor, "Text").textContent()).toBe("");
  expect(await notesInDeck()).toHaveLength(3);
  const [, reversed, cloze] = await notesInDeck();
  expect(reversed).toMatchObject({ kind: "basic_reversed", cards: [{ ordinal: 1 }, { ordinal: 2 }] });
  expect(cloze?.kind).toBe("cloze");
  expect((cloze?.fields as { text: string } | undefined)?.text).toBe(
    "<p>{{c2::Paris}} is the capital of {{c1::France}}</p>",
  );
  expect(cloze?.cards.map((card) => card.ordinal).sort()).toEqual([1, 2]);

  // Escape with nothing typed closes at once; the next add starts with Cloze again.
  await press("Escape");
  await editor.waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Add note" }).click();
  expect(await dialog("Add note").getByRole("radio", { name: "Cloze" }).isChecked()).toBe(true);
});

test("bold and italic by shortcut are stored as strong and em; Escape asks before discarding", async () => {
  const editor = await openAddDialog();
  await editor.getByRole("radio", { name: "Basic", exact: true }).check();
  await field(editor, "Front").click();
  await page.keyboard.type("plain ");
  await press("Control+B");
  await page.keyboard.type("bold");
  await press("Control+B");
  await page.keyboard.type(" and ");
  await press("Control+I");
  await page.keyboard.type("slanted");
  const frontTools = editor.getByRole("toolbar", { name: "Front formatting" });
  expect(await frontTools.getByRole("button", { name: "Italic" }).getAttribute("aria-pressed")).toBe("true");
  await press("Control+I");
  await field(editor, "Back").click();
  await page.keyboard.type("answer ");

  // Ctrl+K asks for the address; only web and email links are taken.
  await press("Control+K");
  const address = editor.getByLabel("Link address");
  await address.fill("javascript:alert(1)");
  await press("Enter");
  await editor.getByText("Use a web address starting with http:// or https://").waitFor();
  await address.fill("https://en.wikipedia.org/wiki/Paris");
  await press("Enter");
  await address.waitFor({ state: "hidden" });
  await field(editor, "Back").getByRole("link", { name: "https://en.wikipedia.org/wiki/Paris" }).waitFor();

  await press("Escape");
  const confirm = page.getByRole("alertdialog", { name: "Discard this note?" });
  await confirm.waitFor();
  await screenshot(page, "note-editor-discard");
  await press("Escape");
  await confirm.waitFor({ state: "hidden" });
  expect(await editor.isVisible()).toBe(true);

  await editor.getByRole("button", { name: "Save" }).click();
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  const [note] = await notesInDeck();
  const fields = note?.fields as { front: string; back: string } | undefined;
  expect(fields?.front).toBe("<p>plain <strong>bold</strong> and <em>slanted</em></p>");
  expect(fields?.back).toMatch(/^<p>answer <a[^>]* href="https:\/\/en\.wikipedia\.org\/wiki\/Paris"[^>]*>/);
});

test("an image chosen with the picker and one pasted are uploaded and shown in the field and the preview", async () => {
  const editor = await openAddDialog();
  await editor.getByRole("radio", { name: "Basic", exact: true }).check();
  await editor
    .getByLabel("Image or sound for Front")
    .setInputFiles({ name: "red.png", mimeType: "image/png", buffer: redPng });
  const frontImage = field(editor, "Front").locator(".editor-media img");
  await frontImage.waitFor();
  await expect.poll(() => frontImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);

  // A paste carrying a file, as a screenshot pasted from the clipboard does.
  await field(editor, "Back").click();
  await page.keyboard.type("Red ");
  await field(editor, "Back").evaluate(
    (element, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "pasted.png", { type: "image/png" }));
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [...redPng],
  );
  await field(editor, "Back").locator(".editor-media img").waitFor();

  // A file dropped on a field, as from the desktop.
  await field(editor, "Front").evaluate(
    (element, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "dropped.png", { type: "image/png" }));
      const box = element.getBoundingClientRect();
      const at = {
        clientX: box.right - 10,
        clientY: box.bottom - 10,
        bubbles: true,
        cancelable: true,
        dataTransfer: data,
      };
      element.dispatchEvent(new DragEvent("dragenter", at));
      element.dispatchEvent(new DragEvent("dragover", at));
      element.dispatchEvent(new DragEvent("drop", at));
    },
    [...redPng],
  );
  await expect.poll(() => field(editor, "Front").locator(".editor-media img").count()).toBe(2);

  // The preview shows them from the deck's storage, as a study card would: the front's two, and
  // the answer side's three (it repeats the question, as Anki's back does).
  const previewImages = editor.locator(".card-preview img");
  await expect.poll(() => previewImages.count()).toBe(5);
  await expect
    .poll(() =>
      previewImages.evaluateAll((images: HTMLImageElement[]) => images.every((img) => img.naturalWidth === 2)),
    )
    .toBe(true);
  await screenshot(page, "note-editor-media");

  // A file of the wrong kind is refused by the field and nothing is inserted.
  await editor
    .getByLabel("Image or sound for Back")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await editor.getByRole("alert").filter({ hasText: "This file type can't be used" }).waitFor();
  expect(await field(editor, "Back").locator(".editor-media img").count()).toBe(1);

  // A sound: an audio player in the field, stored as <audio controls src="…">.
  await editor
    .getByLabel("Image or sound for Back")
    .setInputFiles({ name: "ding.wav", mimeType: "audio/wav", buffer: silentWav() });
  await field(editor, "Back").locator("audio[src^='http']").waitFor();

  await press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  const { data: files } = await adminClient().storage.from("media").list(deckId);
  expect(files?.map((file) => file.name.replace(/^[0-9a-f]{8}-/, "")).sort()).toEqual([
    "ding.wav",
    "dropped.png",
    "pasted.png",
    "red.png",
  ]);
  const [note] = await notesInDeck();
  const fields = note?.fields as { front: string; back: string };
  // Stored by the file's name in the deck, never by a signed link.
  expect(fields.front).toMatch(
    /^<p><img src="[0-9a-f]{8}-red\.png">(<\/p><p>)?<img src="[0-9a-f]{8}-dropped\.png"><\/p>$/,
  );
  expect(fields.back).toMatch(
    /^<p>Red <img src="[0-9a-f]{8}-pasted\.png"><\/p><audio controls="" src="[0-9a-f]{8}-ding\.wav"><\/audio>/,
  );
});

test("the rules are shown beside each field and nothing is saved", async () => {
  const editor = await openAddDialog();
  await editor.getByRole("radio", { name: "Basic", exact: true }).check();
  await field(editor, "Back").click();
  await page.keyboard.type("an answer");
  await press("Control+Enter");
  const front = field(editor, "Front");
  await editor.getByText("The front cannot be empty.").first().waitFor();
  expect(await front.getAttribute("aria-invalid")).toBe("true");
  const describedBy = (await front.getAttribute("aria-describedby")) ?? "";
  const descriptions = await Promise.all(
    describedBy.split(" ").map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  expect(descriptions).toContain("The front cannot be empty.");
  expect(await editor.getByRole("alert").first().textContent()).toContain("The front cannot be empty.");
  await screenshot(page, "note-editor-invalid");

  // A cloze needs a deletion; a tag may not hold a space (here an ideographic one, as a Japanese keyboard types).
  await editor.getByRole("radio", { name: "Cloze" }).check();
  await field(editor, "Text").click();
  await page.keyboard.type("No deletion here");
  await editor.getByLabel("Tags", { exact: true }).fill("kanji\u3000N5");
  await editor.getByRole("button", { name: "Save" }).click();
  await editor.getByText("Add at least one cloze deletion, like {{c1::answer}}.").first().waitFor();
  expect(await field(editor, "Text").getAttribute("aria-invalid")).toBe("true");
  const tags = editor.getByLabel("Tags", { exact: true });
  expect(await tags.getAttribute("aria-invalid")).toBe("true");
  expect(await editor.locator(".tags-field .field-error").textContent()).toBe(
    "Tags cannot contain spaces; use _ or - instead.",
  );
  // What was typed is still there to fix.
  expect(await field(editor, "Text").textContent()).toBe("No deletion here");
  expect(await notesInDeck()).toEqual([]);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // On a phone the fields and the preview stack, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => editor.evaluate((element) => element.scrollWidth <= element.clientWidth && element.clientWidth <= 390))
    .toBe(true);
  await screenshot(page, "note-editor-phone");
});

test("editing a studied note keeps its cards' schedules", async () => {
  const admin = adminClient();
  const { data: note, error } = await admin
    .from("notes")
    .insert({
      deck_id: deckId,
      kind: "basic_reversed",
      fields: { front: "<p>Capital of Spain</p>", back: "<p>Barcelona</p>" },
      tags: ["geography"],
      created_by: account.id,
    })
    .select("id")
    .single();
  if (error || !note) throw error ?? new Error("no note");
  const due = new Date(Date.now() + 9 * 86_400_000).toISOString();
  const cardIds = (await admin.from("cards").select("id").eq("note_id", note.id)).data?.map((card) => card.id) ?? [];
  const studied = await admin
    .from("card_states")
    .update({
      state: "review" as const,
      due,
      stability: 9.5,
      difficulty: 4.2,
      scheduled_days: 9,
      reps: 4,
      last_review: new Date().toISOString(),
    })
    .eq("user_id", account.id)
    .in("card_id", cardIds)
    .select("card_id");
  expect(studied.data).toHaveLength(2);
  const schedules = async () =>
    (
      await admin
        .from("card_states")
        .select("card_id, state, due, stability, difficulty, reps, scheduled_days")
        .eq("user_id", account.id)
        .order("card_id")
    ).data;
  const before = await schedules();

  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Capital of Spain", exact: true }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = dialog("Edit note");
  await field(editor, "Back").getByText("Barcelona").waitFor();
  // The type is shown, not offered: a note's type is chosen when it is added.
  expect(await editor.getByRole("radio").count()).toBe(0);
  expect(await editor.getByText("Note type: Basic and reversed").isVisible()).toBe(true);
  await field(editor, "Back").click();
  await press("Control+A");
  await page.keyboard.type("Madrid");
  await editor.getByLabel("Tags", { exact: true }).fill("europe");
  await screenshot(page, "note-editor-edit");
  await press("Control+Enter");
  await editor.waitFor({ state: "hidden" });

  const { data: saved } = await admin.from("notes").select("fields, tags").eq("id", note.id).single();
  expect(saved).toEqual({
    fields: { front: "<p>Capital of Spain</p>", back: "<p>Madrid</p>" },
    tags: ["geography", "europe"],
  });
  expect(await schedules()).toEqual(before);
});

test("a save the server refuses says why and keeps what was typed", async () => {
  const admin = adminClient();
  const { data: note, error } = await admin
    .from("notes")
    .insert({
      deck_id: deckId,
      kind: "basic",
      fields: { front: "<p>Capital of Peru</p>", back: "<p>Lima</p>" },
      created_by: account.id,
    })
    .select("id")
    .single();
  if (error || !note) throw error ?? new Error("no note");

  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Capital of Peru", exact: true }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = dialog("Edit note");
  await field(editor, "Back").getByText("Lima").waitFor();
  // Someone else deletes the note while it is open here.
  expect((await admin.from("notes").delete().eq("id", note.id)).error).toBeNull();
  await field(editor, "Back").click();
  await page.keyboard.type(", on the coast");
  await press("Control+Enter");

  await editor.getByRole("alert").filter({ hasText: "This no longer exists, or it isn't shared with you." }).waitFor();
  expect(await field(editor, "Back").textContent()).toBe("Lima, on the coast");
  expect(await editor.isVisible()).toBe(true);
});

test("a save over someone else's edit of the same field keeps what was typed and offers both versions", async () => {
  const admin = adminClient();
  const { data: note, error } = await admin
    .from("notes")
    .insert({
      deck_id: deckId,
      kind: "basic",
      fields: { front: "<p>Capital of Chile</p>", back: "<p>Santiago</p>" },
      created_by: account.id,
    })
    .select("id")
    .single();
  if (error || !note) throw error ?? new Error("no note");

  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Capital of Chile", exact: true }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = dialog("Edit note");
  await field(editor, "Back").getByText("Santiago").waitFor();
  // Someone else saves the note while it is open here.
  const theirs = { front: "<p>Capital of Chile</p>", back: "<p>Santiago de Chile</p>" };
  expect((await admin.from("notes").update({ fields: theirs }).eq("id", note.id)).error).toBeNull();
  await field(editor, "Back").click();
  await page.keyboard.type(", in the central valley");
  await press("Control+Enter");

  // Saved by no member's session here: the editor cannot name who.
  const conflict = editor.getByRole("region", { name: "Back: you and Another member both changed it" });
  await conflict.getByRole("figure", { name: "Yours" }).getByText("Santiago, in the central valley").waitFor();
  await conflict.getByRole("figure", { name: "Theirs" }).getByText("Santiago de Chile").waitFor();
  const { data: stored } = await admin.from("notes").select("fields").eq("id", note.id).single();
  expect(stored?.fields).toEqual(theirs);

  await conflict.getByRole("button", { name: "Take theirs for Back" }).click();
  expect(await field(editor, "Back").textContent()).toBe("Santiago de Chile");
});
