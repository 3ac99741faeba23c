import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { noteList } from "./deck-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let owner: Account;

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("replace");
});

const words = ["velocity", "density", "gravity", "humidity", "mass"];

test("find and replace with a regular expression changes exactly the selected notes, after a preview count", async () => {
  const deckId = await seedDeck(
    owner.id,
    "Physics",
    words.map((word) => ({ front: word, back: `<b>${word}</b> quantity` })),
  );
  await signInWithPassword(page, owner, `/decks/${deckId}?sort=oldest`);
  await noteList(page).waitFor();

  // velocity, density, gravity: three of the four words ending in -ity.
  await page.getByRole("checkbox", { name: "Select velocity" }).click();
  await page.getByRole("checkbox", { name: "Select gravity" }).click({ modifiers: ["Shift"] });
  const bar = page.getByRole("region", { name: "Selected notes" });
  await bar.getByText("3 notes selected").waitFor();
  await bar.getByRole("button", { name: "Find and replace" }).click();
  const dialog = page.getByRole("dialog", { name: "Find and replace" });
  await dialog.getByLabel("Find").fill("(\\w+)ity");
  await dialog.getByLabel("Replace with").fill("$1ITY");
  await dialog.getByLabel("Treat input as regular expression").check();
  await dialog.getByLabel("In", { exact: true }).selectOption("front");
  await dialog.getByText("Would change 3 notes of 3 (3 fields).").waitFor();
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await dialog.getByRole("button", { name: "Replace in 3 notes" }).click();
  await dialog.waitFor({ state: "detached" });

  const { data } = await adminClient().from("notes").select("fields, version").eq("deck_id", deckId);
  const byFront = Object.fromEntries(
    (data ?? []).map((note) => [
      (note.fields as { front: string }).front,
      [(note.fields as { back: string }).back, note.version],
    ]),
  );
  expect(byFront).toEqual({
    velocITY: ["<b>velocity</b> quantity", 2],
    densITY: ["<b>density</b> quantity", 2],
    gravITY: ["<b>gravity</b> quantity", 2],
    humidity: ["<b>humidity</b> quantity", 1],
    mass: ["<b>mass</b> quantity", 1],
  });
});
