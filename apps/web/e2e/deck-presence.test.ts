import { expect, test } from "vitest";
import { addMember, noteList, noteRow, setDisplayName, visibleFronts } from "./deck-fixtures.js";
import { newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();

test("two members see each other in the deck, who is editing which note, and each other's changes without a reload", async () => {
  const ana = await newAccount("ana");
  const ben = await newAccount("ben");
  await setDisplayName(ana.id, "Ana Lopez");
  await setDisplayName(ben.id, "Ben");
  const deckId = await seedDeck(ana.id, "Shared Spanish", [
    { front: "uno", back: "one" },
    { front: "dos", back: "two" },
  ]);
  await addMember(deckId, ben.id, "editor");

  const anaPage = await openPage(browser());
  const benPage = await openPage(browser());
  await signInWithPassword(anaPage, ana, `/decks/${deckId}`);
  await noteList(anaPage).waitFor();
  await signInWithPassword(benPage, ben, `/decks/${deckId}`);
  await noteList(benPage).waitFor();

  // Each sees the other's avatar (initials, no picture set) named for screen readers, and not their own.
  await anaPage.locator(".avatars").getByText("Ben (viewing)").waitFor();
  await benPage.locator(".avatars").getByText("Ana Lopez (viewing)").waitFor();
  expect(await benPage.locator(".avatar").first().textContent()).toContain("AL");
  expect(
    await anaPage
      .locator(".avatars")
      .getByText(/Ana Lopez/)
      .count(),
  ).toBe(0);

  // Ben opens "dos" in the editor: Ana's row says so, and stops saying it when he closes it.
  await noteRow(benPage, "dos").getByRole("button", { name: "dos" }).click();
  await benPage.getByRole("button", { name: "Edit" }).click();
  const editor = benPage.getByRole("dialog", { name: "Edit note" });
  await editor.waitFor();
  await noteRow(anaPage, "dos").getByText("Ben is editing").waitFor();
  expect(
    await noteRow(anaPage, "uno")
      .getByText(/is editing/)
      .count(),
  ).toBe(0);
  await screenshot(anaPage, "deck-presence-editing");
  expect(await axeViolationsInBothThemes(anaPage)).toEqual([]);
  await benPage.keyboard.press("Escape");
  await editor.waitFor({ state: "hidden" });
  await noteRow(anaPage, "dos").getByText("Ben is editing").waitFor({ state: "hidden" });

  // Ben adds a note; Ana's list shows it without a reload.
  await benPage.getByRole("button", { name: "Add note" }).click();
  const adder = benPage.getByRole("dialog", { name: "Add note" });
  await adder.waitFor();
  await adder.getByRole("textbox", { name: "Front", exact: true }).click();
  await benPage.keyboard.type("tres");
  await adder.getByRole("textbox", { name: "Back", exact: true }).click();
  await benPage.keyboard.type("three");
  await adder.getByRole("button", { name: "Save" }).click();
  await adder.getByText("Note added").waitFor();
  await benPage.keyboard.press("Escape");
  await noteRow(anaPage, "tres").waitFor({ timeout: 10_000 });
  expect((await visibleFronts(anaPage))[0]).toBe("tres");
  expect(await anaPage.locator(".list-summary").textContent()).toBe("3 notes");
});
