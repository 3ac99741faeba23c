/**
 * SVG pictures, which no bucket takes (supabase/README.md, "Security model on
 * hosted Supabase"): pasted into the note editor or brought by an Anki
 * package, each is drawn as PNG by the page, stored as PNG, and named so in
 * the note; one that cannot be drawn is said so, never lost silently.
 */
import { writeApkg } from "@engram/core/export";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { browserPerFile, openPage } from "./support/browser.js";
import { chooseByKeyboard, dropZone, pressOn, summaryHeading } from "./support/import-fixtures.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("svg");
});

/** A 40×30 drawing with a script, which must never reach storage. */
const diagram =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">' +
  '<script>document.title = "ran"</script><rect width="40" height="30" fill="teal"/></svg>';

/** The width and height a PNG's header states, or null when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, index) => bytes[index] === byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function storedMedia(deckId: string): Promise<{ name: string; type: string; size: unknown }[]> {
  const admin = adminClient();
  const { data, error } = await admin.storage.from("media").list(deckId);
  if (error) throw error;
  return Promise.all(
    data.map(async (file) => {
      const download = await admin.storage.from("media").download(`${deckId}/${file.name}`);
      if (download.error) throw download.error;
      const bytes = new Uint8Array(await download.data.arrayBuffer());
      return { name: file.name, type: download.data.type, size: pngSize(bytes) };
    }),
  );
}

const field = (scope: Locator, label: string) => scope.getByRole("textbox", { name: label, exact: true });

test("an SVG pasted into the editor is stored as a PNG of its size, shown, and named in the note", async () => {
  const { data: deck, error } = await adminClient()
    .from("decks")
    .insert({ owner_id: account.id, name: "Diagrams" })
    .select("id")
    .single();
  if (error || !deck) throw error ?? new Error("no deck");
  await signInWithPassword(page, account, `/decks/${deck.id}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.waitFor();
  await editor.getByRole("radio", { name: "Basic", exact: true }).check();

  await field(editor, "Front").click();
  await field(editor, "Front").evaluate((element, svg) => {
    const data = new DataTransfer();
    data.items.add(new File([svg], "diagram.svg", { type: "image/svg+xml" }));
    element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, diagram);
  const image = field(editor, "Front").locator(".editor-media img");
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight]))
    .toEqual([40, 30]);

  await field(editor, "Back").click();
  await page.keyboard.type("A teal box");
  await page.keyboard.press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();

  const stored = await storedMedia(deck.id);
  expect(stored).toEqual([
    { name: expect.stringMatching(/^[0-9a-f]{8}-diagram\.png$/), type: "image/png", size: { width: 40, height: 30 } },
  ]);
  const { data: notes } = await adminClient().from("notes").select("fields").eq("deck_id", deck.id);
  expect(notes?.map((note) => (note.fields as { front: string }).front)).toEqual([
    `<p><img src="${stored[0]?.name}"></p>`,
  ]);
  expect(await page.title()).not.toBe("ran");
});

test("an import draws a package's SVG as PNG on the page and counts one it cannot draw", async () => {
  const apkg = await writeApkg({
    name: "Shapes",
    notes: [
      {
        id: 1,
        kind: "basic",
        fields: { front: 'A box <img src="box.svg">', back: "teal" },
        tags: [],
        cards: [{ id: 1, ordinal: 1 }],
      },
      {
        id: 2,
        kind: "basic",
        fields: { front: 'Broken <img src="broken.svg">', back: "nothing" },
        tags: [],
        cards: [{ id: 2, ordinal: 1 }],
      },
    ],
    media: [
      { name: "box.svg", data: new TextEncoder().encode(diagram) },
      { name: "broken.svg", data: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><rect") },
    ],
  });

  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent("/import")}`);
  await dropZone(page).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === "main");
  await chooseByKeyboard(page, { name: "shapes.apkg", mimeType: "application/zip", buffer: Buffer.from(apkg) });
  await page.getByRole("heading", { level: 2, name: "shapes.apkg" }).waitFor();
  await pressOn(page, page.getByRole("button", { name: "Import", exact: true }));
  await summaryHeading(page).waitFor({ timeout: 0 });
  expect(await page.locator(".import-skipped li").allTextContents()).toContain(
    "1 SVG pictures that couldn't be drawn as PNG",
  );

  const href = await page.getByRole("link", { name: "Open deck" }).getAttribute("href");
  const deckId = href?.split("/").pop() ?? "";
  expect(await storedMedia(deckId)).toEqual([{ name: "box.png", type: "image/png", size: { width: 40, height: 30 } }]);
  const { data: notes } = await adminClient().from("notes").select("fields").eq("deck_id", deckId);
  const fronts = (notes ?? []).map((note) => (note.fields as { front: string }).front).sort();
  expect(fronts).toEqual([
    expect.stringMatching(/^A box <img src="box\.png" ?\/?>$/),
    expect.stringMatching(/^Broken <img src="broken\.svg" ?\/?>$/),
  ]);
});
