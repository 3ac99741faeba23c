/**
 * Image occlusion notes (docs/product.md §3): one drawn in the editor with
 * two rectangles in two groups makes two cards; studying card 1 shows its
 * mask over the image as Anki's reviewer does (hide all, guess one: group 2
 * hidden too; hide one, guess one: group 2 not drawn), then outlines it on
 * the answer side; an Anki image occlusion package is imported and studied.
 */
import { deflateSync } from "node:zlib";
import { writeApkg } from "@engram/core/export";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { cardArea } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { chooseByKeyboard, dropZone, summaryHeading } from "./support/import-fixtures.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("occlusion");
});

/** A 400×300 drawing to occlude; the editor stores it as a PNG. */
const diagram =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">' +
  '<rect width="400" height="300" fill="#e0f0ff"/><circle cx="100" cy="100" r="60" fill="#c33"/>' +
  '<rect x="240" y="160" width="120" height="90" fill="#3a3"/></svg>';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A solid-colour RGB PNG of the given size, for a package's image. */
function solidPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xc8)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The masks drawn over the card's image, by state and group. */
const masks = (scope: Locator) =>
  scope
    .locator("engram-occlusion svg.occlusion-masks [data-state]")
    .evaluateAll((elements) =>
      elements.map((element) => `${element.getAttribute("data-state")}:${element.getAttribute("data-ordinal")}`),
    );

/** Drags from one point to another, in fractions of the box. */
async function drag(surface: Locator, from: [number, number], to: [number, number]) {
  await surface.scrollIntoViewIfNeeded();
  const box = await surface.boundingBox();
  if (!box) throw new Error("no drawing surface");
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + ((from[0] + to[0]) / 2) * box.width, box.y + ((from[1] + to[1]) / 2) * box.height);
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height);
  await page.mouse.up();
}

test("an image occlusion note drawn in the editor makes a card per group, studied with Anki's masks", async () => {
  const deckId = await seedDeck(account.id, "Anatomy", []);
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.getByRole("radio", { name: "Image occlusion" }).check();
  const chooser = page.waitForEvent("filechooser");
  await editor.getByRole("button", { name: "Choose image" }).click();
  await (await chooser).setFiles({ name: "diagram.svg", mimeType: "image/svg+xml", buffer: Buffer.from(diagram) });
  const surface = editor.getByRole("application", { name: "Image with masks" });
  await surface.locator("img").waitFor();
  await expect.poll(() => surface.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);

  await drag(surface, [0.1, 0.15], [0.45, 0.6]);
  await drag(surface, [0.55, 0.5], [0.95, 0.9]);
  await editor.getByRole("status").filter({ hasText: "2 masks in 2 groups: 2 cards." }).waitFor();

  // From the keyboard: a rectangle added, moved with the arrow keys, then deleted.
  await editor.getByRole("button", { name: "Add rectangle" }).click();
  await editor.getByRole("status").filter({ hasText: "3 masks in 3 groups: 3 cards." }).waitFor();
  const added = surface.locator('rect.occlusion-mask[data-ordinal="3"]');
  const before = Number(await added.getAttribute("x"));
  await surface.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowRight");
  // The editor draws in the image's own pixels: 0.06 of its 400 px width.
  await expect.poll(async () => Number(await added.getAttribute("x")) - before).toBeCloseTo(24, 3);
  await page.keyboard.press("Delete");
  await editor.getByRole("status").filter({ hasText: "2 masks in 2 groups: 2 cards." }).waitFor();
  // Grouping two masks makes them one card; ungrouping splits them again.
  await editor.getByRole("button", { name: "Rectangle 1, card 1" }).click();
  await editor.getByRole("button", { name: "Rectangle 2, card 2" }).click({ modifiers: ["Shift"] });
  await editor.getByRole("button", { name: "Group", exact: true }).click();
  await editor.getByRole("status").filter({ hasText: "2 masks in 1 group: 1 card." }).waitFor();
  await editor.getByRole("button", { name: "Ungroup" }).click();
  await editor.getByRole("status").filter({ hasText: "2 masks in 2 groups: 2 cards." }).waitFor();
  await editor.getByRole("textbox", { name: "Header", exact: true }).click();
  await page.keyboard.type("The diagram");
  await screenshot(page, "image-occlusion-editor");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.keyboard.press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();

  const { data: notes, error } = await adminClient()
    .from("notes")
    .select("kind, fields, cards(ordinal)")
    .eq("deck_id", deckId);
  if (error) throw error;
  expect(notes).toHaveLength(1);
  const [note] = notes ?? [];
  expect(note?.kind).toBe("image_occlusion");
  expect(note?.cards.map((card) => card.ordinal).sort()).toEqual([1, 2]);
  const fields = note?.fields as Record<string, string>;
  expect(fields.image).toMatch(/^<img src="[^"]+\.png">$/);
  expect(fields.occlusions).toMatch(
    /^\{\{c1::image-occlusion:rect:left=[.\d]+:top=[.\d]+:width=[.\d]+:height=[.\d]+:oi=1\}\}<br>\{\{c2::image-occlusion:rect:[^}]+:oi=1\}\}<br>$/,
  );
  expect(fields.header).toBe("<p>The diagram</p>");
  await page.keyboard.press("Escape");

  // Hide all: the card's group asked (red, "?"), the other hidden (yellow), over the image. New
  // cards of one note come in either order, so the group asked is read from the card shown.
  await page.goto(`/decks/${deckId}/study`);
  const front = cardArea(page).locator(".card-view-front");
  await front.locator("engram-occlusion svg.occlusion-masks").waitFor();
  const shown = await masks(front);
  const asked = shown.find((mask) => mask.startsWith("active:"))?.slice("active:".length);
  const other = asked === "1" ? "2" : "1";
  expect(shown.sort()).toEqual([`active:${asked}`, `inactive:${other}`].sort());
  const image = await front.locator("engram-occlusion img").boundingBox();
  const overlay = await front.locator("engram-occlusion svg.occlusion-masks").boundingBox();
  expect(overlay).toEqual(image);
  expect(await front.locator('[data-state="active"]').evaluate((element) => getComputedStyle(element).fill)).toBe(
    "rgb(255, 142, 142)",
  );
  await screenshot(page, "image-occlusion-front");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await page.keyboard.press("Space");
  const back = cardArea(page).locator(".card-view-back");
  await back.locator("engram-occlusion svg.occlusion-masks").waitFor();
  expect((await masks(back)).sort()).toEqual([`inactive:${other}`, `revealed:${asked}`].sort());
  expect(await back.locator('[data-state="revealed"]').evaluate((element) => getComputedStyle(element).fill)).toBe(
    "none",
  );
  await screenshot(page, "image-occlusion-back");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Hide one, guess one: the other group is not drawn at all.
  const { error: updated } = await adminClient()
    .from("notes")
    .update({ fields: { ...fields, occlusions: fields.occlusions?.replaceAll(":oi=1", "") } })
    .eq("deck_id", deckId);
  if (updated) throw updated;
  await page.goto(`/decks/${deckId}/study`);
  await front.locator("engram-occlusion svg.occlusion-masks").waitFor();
  expect(await masks(front)).toEqual([expect.stringMatching(/^active:[12]$/)]);
});

/** Clicks at a point of the box, in fractions of it. */
async function clickAt(surface: Locator, at: [number, number]) {
  await surface.scrollIntoViewIfNeeded();
  const box = await surface.boundingBox();
  if (!box) throw new Error("no drawing surface");
  await page.mouse.click(box.x + at[0] * box.width, box.y + at[1] * box.height);
}

/** A polygon's points as drawn, in the image's pixels. */
const polygonPoints = (scope: Locator) => scope.locator("polygon.occlusion-mask").getAttribute("points");

test("polygons, labels and turned masks are drawn in the editor, saved as Anki writes them and studied", async () => {
  const deckId = await seedDeck(account.id, "Shapes", []);
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.getByRole("radio", { name: "Image occlusion" }).check();
  const chooser = page.waitForEvent("filechooser");
  await editor.getByRole("button", { name: "Choose image" }).click();
  await (await chooser).setFiles({ name: "diagram.svg", mimeType: "image/svg+xml", buffer: Buffer.from(diagram) });
  const surface = editor.getByRole("application", { name: "Image with masks" });
  await surface.locator("svg").waitFor();
  const status = editor.getByRole("status").filter({ hasText: /masks? |No masks/ });

  // A polygon begun and cancelled with Escape: the draft goes, the dialog stays.
  await editor.getByRole("radio", { name: "Draw polygons" }).check();
  await clickAt(surface, [0.1, 0.1]);
  await clickAt(surface, [0.3, 0.1]);
  await surface.locator(".occlusion-polygon-draft circle").nth(1).waitFor();
  await page.keyboard.press("Escape");
  await surface.locator(".occlusion-polygon-draft").waitFor({ state: "detached" });
  await expect.poll(() => editor.isVisible()).toBe(true);

  // Clicked corners, closed on the first one.
  await clickAt(surface, [0.1, 0.1]);
  await clickAt(surface, [0.4, 0.15]);
  await clickAt(surface, [0.2, 0.5]);
  await clickAt(surface, [0.1, 0.1]);
  await status.filter({ hasText: "1 mask in 1 group: 1 card." }).waitFor();
  // Selected once closed: the arrow keys move it, Ctrl+Z puts it back.
  const drawn = await polygonPoints(surface);
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(() => polygonPoints(surface)).not.toBe(drawn);
  await page.keyboard.press("Control+z");
  await expect.poll(() => polygonPoints(surface)).toBe(drawn);
  // From the keyboard: Space shows the cursor, arrows move it, Space adds corners, Enter closes; Delete removes it.
  for (const key of ["Space", "Space", "Shift+ArrowRight", "Shift+ArrowRight", "Space", "Shift+ArrowDown"]) {
    await page.keyboard.press(key);
  }
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Space");
  await page.keyboard.press("Enter");
  await status.filter({ hasText: "2 masks in 2 groups: 2 cards." }).waitFor();
  const corners = (await surface.locator("polygon.occlusion-mask").nth(1).getAttribute("points")) ?? "";
  expect(corners.split(/[ ,]/).map((value) => Math.round(Number(value)))).toEqual([200, 150, 240, 150, 240, 180]);
  await page.keyboard.press("Delete");
  await status.filter({ hasText: "1 mask in 1 group: 1 card." }).waitFor();

  // A label placed with a click; its text field takes the typing.
  await editor.getByRole("radio", { name: "Place labels" }).check();
  await clickAt(surface, [0.6, 0.08]);
  const labelText = editor.getByRole("textbox", { name: "Label text" });
  await expect.poll(() => labelText.evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.type("Heart");
  await surface.locator("text", { hasText: "Heart" }).waitFor();
  await status.filter({ hasText: "1 mask in 1 group: 1 card. 1 label on every card." }).waitFor();
  // Placed, the label is selected with the Select tool: dragging it moves it down 0.1 of the image (30 px).
  const labelY = () => surface.locator("g.occlusion-mask text").getAttribute("y").then(Number);
  const placed = await labelY();
  await drag(surface, [0.65, 0.12], [0.65, 0.22]);
  await expect.poll(async () => (await labelY()) - placed).toBeCloseTo(30, 0);
  // Its turning handle dragged to 20° clockwise of straight up (with the pointer 100 px from the label's corner).
  const handle = surface.locator(".occlusion-rotate-handle circle");
  const arm = surface.locator(".occlusion-rotate-handle line");
  const grip = await handle.boundingBox();
  const frame = await surface.boundingBox();
  if (!grip || !frame) throw new Error("no turning handle");
  const [pivotX, pivotY] = [Number(await arm.getAttribute("x1")), Number(await arm.getAttribute("y1"))];
  const pivot = { x: frame.x + (pivotX * frame.width) / 400, y: frame.y + (pivotY * frame.height) / 300 };
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  const toward = (-70 * Math.PI) / 180;
  await page.mouse.move(pivot.x + 60 * Math.cos(toward), pivot.y + 60 * Math.sin(toward));
  await page.mouse.move(pivot.x + 100 * Math.cos(toward), pivot.y + 100 * Math.sin(toward));
  await page.mouse.up();
  await expect.poll(() => editor.getByRole("spinbutton", { name: "Rotation (degrees)" }).inputValue()).toBe("20");

  // A rectangle drawn, then turned 30° from its settings.
  await editor.getByRole("radio", { name: "Draw rectangles" }).check();
  await drag(surface, [0.55, 0.5], [0.9, 0.8]);
  await status.filter({ hasText: "2 masks in 2 groups: 2 cards." }).waitFor();
  await editor.getByRole("button", { name: "Rectangle 3, card 2" }).click();
  await editor.getByRole("spinbutton", { name: "Rotation (degrees)" }).fill("30");
  await expect
    .poll(() => surface.locator('rect.occlusion-mask[data-ordinal="2"]').getAttribute("transform"))
    .toMatch(/^rotate\(30 /);
  await surface.evaluate((element) => element.scrollIntoView({ block: "start" }));
  await screenshot(page, "image-occlusion-editor-shapes");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.keyboard.press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();

  const { data: notes, error } = await adminClient()
    .from("notes")
    .select("fields, cards(ordinal)")
    .eq("deck_id", deckId);
  if (error) throw error;
  expect(notes?.map((note) => note.cards.map((card) => card.ordinal).sort())).toEqual([[1, 2]]);
  const occlusions = (notes?.[0]?.fields as Record<string, string> | undefined)?.occlusions;
  expect(occlusions).toMatch(
    /^\{\{c1::image-occlusion:polygon:left=\.\d+:top=\.\d+:points=(\.\d+,\.\d+ ){2}\.\d+,\.\d+:oi=1\}\}<br>/,
  );
  expect(occlusions).toMatch(
    /\{\{c0::image-occlusion:text:left=\.\d+:top=\.\d+:angle=556:text=Heart:scale=1\.:fs=\.1333:oi=1\}\}<br>/,
  );
  expect(occlusions).toMatch(
    /\{\{c2::image-occlusion:rect:left=[.\d]+:top=[.\d]+:angle=833:width=[.\d]+:height=[.\d]+:oi=1\}\}<br>$/,
  );
  await page.keyboard.press("Escape");

  // Studied: the polygon is an SVG polygon, the label is drawn on its white box, the rectangle turned.
  await page.goto(`/decks/${deckId}/study`);
  const front = cardArea(page).locator(".card-view-front");
  const overlay = front.locator("engram-occlusion svg.occlusion-masks");
  await overlay.waitFor();
  expect(await overlay.locator("polygon[data-state]").count()).toBe(1);
  // Anki keeps 1/10000 turns: 30° is stored as 833, read back as 29.988°.
  const turned = await overlay.locator('rect[data-ordinal="2"]').getAttribute("transform");
  expect(Number(/^rotate\(([\d.]+) /.exec(turned ?? "")?.[1])).toBeCloseTo(30, 1);
  const label = overlay.locator('g[data-state="label"]');
  expect(await label.locator("text").textContent()).toBe("Heart");
  expect(await label.locator("rect").getAttribute("fill")).toBe("#ffffff");
  expect(await overlay.getAttribute("aria-label")).toContain('label "Heart"');
  await screenshot(page, "image-occlusion-shapes-front");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

test("an Anki image occlusion package is imported and studied with its masks", async () => {
  const apkg = await writeApkg({
    name: "Heart",
    notes: [
      {
        id: "io-note",
        kind: "image_occlusion",
        fields: {
          image: '<img src="heart.png">',
          occlusions:
            "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.2:oi=1}}<br>" +
            "{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.15:ry=.1:oi=1}}<br>",
          header: "The heart",
          back_extra: "Left ventricle",
          comments: "",
        },
        tags: [],
        cards: [
          { id: "io-card-1", ordinal: 1 },
          { id: "io-card-2", ordinal: 2 },
        ],
      },
    ],
    media: [{ name: "heart.png", data: new Uint8Array(solidPng(320, 240)) }],
  });
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent("/import")}`);
  await dropZone(page).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === "main");
  await chooseByKeyboard(page, { name: "heart.apkg", mimeType: "application/zip", buffer: Buffer.from(apkg) });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await summaryHeading(page).waitFor();
  const href = await page.getByRole("link", { name: "Open deck" }).getAttribute("href");
  const deckId = href?.split("/").pop() ?? "";

  const { data: notes, error } = await adminClient().from("notes").select("kind, cards(ordinal)").eq("deck_id", deckId);
  if (error) throw error;
  expect(notes?.map((note) => [note.kind, note.cards.map((card) => card.ordinal).sort()])).toEqual([
    ["image_occlusion", [1, 2]],
  ]);

  await page.goto(`/decks/${deckId}/study`);
  const front = cardArea(page).locator(".card-view-front");
  await front.locator("engram-occlusion svg.occlusion-masks").waitFor();
  expect(await front.textContent()).toContain("The heart");
  // Either card may come first; its own group is asked, the other one hidden.
  const shown = await masks(front);
  const asked = shown.find((mask) => mask.startsWith("active:"))?.slice("active:".length);
  expect(shown.sort()).toEqual(asked === "1" ? ["active:1", "inactive:2"] : ["active:2", "inactive:1"]);
  await page.keyboard.press("Space");
  const back = cardArea(page).locator(".card-view-back");
  await back.locator("engram-occlusion svg.occlusion-masks").waitFor();
  expect(await masks(back)).toContain(`revealed:${asked}`);
  expect(await back.textContent()).toContain("Left ventricle");
  await screenshot(page, "image-occlusion-imported-back");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
