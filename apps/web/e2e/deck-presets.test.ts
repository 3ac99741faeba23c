import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { adminClient, newAccount, nodeClient } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();

const settingsHeading = (page: Page) => page.getByRole("heading", { level: 1, name: "Deck settings" });
const presetList = (page: Page) => page.getByRole("combobox", { name: "Preset" });
const newPerDay = (page: Page) => page.getByRole("spinbutton", { name: "New cards per day" });
const status = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).waitFor();

async function storedDeck(deckId: string) {
  const { data, error } = await adminClient().from("decks").select("preset_id, new_per_day").eq("id", deckId).single();
  if (error) throw error;
  return data;
}

async function openSettings(page: Page, deckId: string) {
  await page.goto(`/decks/${deckId}/settings`);
  await settingsHeading(page).waitFor();
}

describe("deck presets", () => {
  test("a preset made on one deck's settings and chosen on another carries a change to both, the study queue included", async () => {
    const owner = await newAccount("owner");
    const biology = await seedDeck(owner.id, "Biology", basicNotes(3));
    const chemistry = await seedDeck(owner.id, "Chemistry", basicNotes(12));
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${biology}/settings`);
    await settingsHeading(page).waitFor();
    expect(await presetList(page).inputValue()).toBe("");

    // A preset made from Biology's options as typed, which Biology then uses.
    await newPerDay(page).fill("7");
    await page.getByRole("button", { name: "New preset…" }).click();
    const create = page.getByRole("dialog", { name: "New preset" });
    await create.getByRole("textbox", { name: "Preset name" }).fill("Exam");
    await screenshot(page, "deck-presets-new");
    await create.getByRole("button", { name: "Create preset" }).click();
    await status(page, "This deck now uses the new preset “Exam”.");
    await page.getByText("Used by 1 deck.").waitFor();
    const { data: presets } = await adminClient()
      .from("deck_presets")
      .select("id, name, new_per_day")
      .eq("owner_id", owner.id);
    expect(presets).toEqual([{ id: expect.any(String), name: "Exam", new_per_day: 7 }]);
    const examId = presets?.[0]?.id;
    expect(await storedDeck(biology)).toEqual({ preset_id: examId, new_per_day: 7 });

    // Chemistry takes it from the list, and its options show the preset's.
    await openSettings(page, chemistry);
    await presetList(page).selectOption({ label: "Exam" });
    await status(page, "This deck now uses “Exam”.");
    await page.getByText("Used by 2 decks.").waitFor();
    expect(await newPerDay(page).inputValue()).toBe("7");

    // Changed on Biology's screen, saved to the preset.
    await openSettings(page, biology);
    await page.getByText("Used by 2 decks.").waitFor();
    expect(await newPerDay(page).inputValue()).toBe("7");
    await newPerDay(page).fill("9");
    await page.getByRole("button", { name: "Save changes" }).click();
    await status(page, "Settings saved, for every deck using “Exam”.");
    expect(await storedDeck(chemistry)).toEqual({ preset_id: examId, new_per_day: 9 });

    await openSettings(page, chemistry);
    expect(await newPerDay(page).inputValue()).toBe("9");
    expect(await presetList(page).inputValue()).toBe(examId);
    await screenshot(page, "deck-presets-chosen");
    expect(await axeViolationsInBothThemes(page)).toEqual([]);

    // Studying Chemistry gives 9 of its 12 new cards.
    const client = nodeClient();
    const signIn = await client.auth.signInWithPassword({ email: owner.email, password: owner.password });
    if (signIn.error) throw signIn.error;
    const queue = await client.rpc("study_queue", { p_deck_id: chemistry });
    if (queue.error) throw queue.error;
    expect(queue.data.filter((card: { queue: string }) => card.queue === "new")).toHaveLength(9);
  });

  test("a preset is renamed, then deleted after asking, and its deck keeps the options it had", async () => {
    const owner = await newAccount("owner");
    const deckId = await seedDeck(owner.id, "History", basicNotes(1));
    const page = await openPage(browser());
    await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
    await settingsHeading(page).waitFor();
    await newPerDay(page).fill("4");
    await page.getByRole("button", { name: "New preset…" }).click();
    const create = page.getByRole("dialog", { name: "New preset" });
    await create.getByRole("textbox", { name: "Preset name" }).fill("Light");
    await create.getByRole("button", { name: "Create preset" }).click();
    await status(page, "This deck now uses the new preset “Light”.");

    await page.getByRole("button", { name: "Rename…" }).click();
    const rename = page.getByRole("dialog", { name: "Rename “Light”" });
    await rename.getByRole("textbox", { name: "Preset name" }).fill("Gentle");
    await rename.getByRole("button", { name: "Rename preset" }).click();
    await status(page, "The preset is now called “Gentle”.");
    expect(await presetList(page).locator("option:checked").textContent()).toBe("Gentle");

    await page.getByRole("button", { name: "Delete…" }).click();
    const remove = page.getByRole("dialog", { name: "Delete the preset “Gentle”?" });
    await remove.getByText("The deck using it keeps its current options, as its own.").waitFor();
    await screenshot(page, "deck-presets-delete");
    await remove.getByRole("button", { name: "Delete preset" }).click();
    await status(page, "The preset “Gentle” was deleted. This deck keeps its options.");
    expect(await presetList(page).inputValue()).toBe("");
    expect(await newPerDay(page).inputValue()).toBe("4");
    expect(await storedDeck(deckId)).toEqual({ preset_id: null, new_per_day: 4 });
  });
});
