/**
 * The settings screen (docs/product.md §2): name and picture (seen by co-members),
 * the study day (which decides what is due today), scheduling, and deleting
 * the account. Bad input is refused beside its field and changes nothing.
 */
import { createHmac } from "node:crypto";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { addMember, noteList, setDisplayName } from "./deck-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { redPng } from "./support/media.js";
import { signInWithPassword, signOut } from "./support/screens.js";

const browser = browserPerFile();
const hour = 3_600_000;
/** Waits as long as Playwright's own expectations do. */
const poll = { timeout: 5_000 };

async function openSettings(page: Page, account: Account) {
  await signInWithPassword(page, account, "/sign-in?next=%2Fsettings");
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await section(page, "Profile").getByLabel("Display name").waitFor();
}

const section = (page: Page, name: string) => page.getByRole("region", { name });

async function profileOf(userId: string) {
  const { data, error } = await adminClient().from("profiles").select("*").eq("id", userId).maybeSingle();
  if (error) throw error;
  return data;
}

test("a new picture shows in the settings and to a co-member in the deck's presence avatars", async () => {
  const ana = await newAccount("ana");
  const ben = await newAccount("ben");
  await setDisplayName(ana.id, "Ana Lopez");
  await setDisplayName(ben.id, "Ben");
  const deckId = await seedDeck(ben.id, "Anatomy together", [{ front: "femur", back: "thigh bone" }]);
  await addMember(deckId, ana.id, "editor");

  const benPage = await openPage(browser());
  await signInWithPassword(benPage, ben, `/decks/${deckId}`);
  await noteList(benPage).waitFor();

  const anaPage = await openPage(browser());
  await openSettings(anaPage, ana);
  const profile = section(anaPage, "Profile");
  await profile.getByLabel("Add a picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: redPng });
  await profile.getByText("Picture saved.").waitFor();
  const mine = profile.getByRole("img", { name: "You, as others see you" });
  await expect.poll(() => mine.evaluate((img: HTMLImageElement) => img.naturalWidth), poll).toBeGreaterThan(0);
  const path = (await profileOf(ana.id))?.avatar_path;
  expect(path).toMatch(new RegExp(`^${ana.id}/.+-me\\.png$`));
  await screenshot(anaPage, "settings");

  // Ana opens the shared deck: Ben sees her picture, not her initials.
  await anaPage.goto(`/decks/${deckId}`);
  await noteList(anaPage).waitFor();
  const avatar = benPage.locator(".avatars .avatar").filter({ hasText: "Ana Lopez (viewing)" });
  await avatar.locator("img").waitFor();
  await expect
    .poll(() => avatar.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth), poll)
    .toBeGreaterThan(0);
  expect(await avatar.locator("img").getAttribute("src")).toContain(`/avatars/${ana.id}/`);

  // Replacing and removing it.
  await anaPage.goto("/settings");
  await profile
    .getByLabel("Replace your picture")
    .setInputFiles({ name: "new.png", mimeType: "image/png", buffer: redPng });
  await profile.getByText("Picture replaced.").waitFor();
  expect((await profileOf(ana.id))?.avatar_path).toMatch(/-new\.png$/);
  await profile.getByRole("button", { name: "Remove picture" }).click();
  await profile.getByText("Picture removed.").waitFor();
  expect((await profileOf(ana.id))?.avatar_path).toBeNull();
  await profile.getByText("AL", { exact: true }).waitFor();
});

test("the study day decides what is due today: a later day start drops a card, the detected time zone brings it back", async () => {
  const account = await newAccount("day");
  const deckId = await seedDeck(account.id, "Rivers", [{ front: "Nile", back: "Africa" }]);
  const { data: cards, error } = await adminClient().from("cards").select("id").eq("deck_id", deckId);
  if (error || !cards[0]) throw error ?? new Error("no card");
  // A review card due six hours from now. The account's day (UTC) starts twelve hours from now,
  // so the card is due within today.
  const { error: scheduled } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      due: new Date(Date.now() + 6 * hour).toISOString(),
      stability: 4,
      difficulty: 5,
      scheduled_days: 3,
      reps: 2,
    })
    .eq("user_id", account.id)
    .eq("card_id", cards[0].id);
  if (scheduled) throw scheduled;

  // The browser is in Tokyo (UTC+9).
  const page = await openPage(browser(), { timezoneId: "Asia/Tokyo" });
  await signInWithPassword(page, account, "/sign-in?next=%2F");
  const row = page.getByRole("list", { name: "Due today by deck" }).getByRole("listitem", { name: "Rivers" });
  const dueText = async () =>
    (await row.getByRole("list", { name: "Due today" }).innerText()).replace(/\s+/g, " ").trim();
  await expect.poll(dueText, poll).toBe("0 new 0 learning 1 review");

  // The day now starts three hours from now (UTC): today ends before the card is due.
  await page.goto("/settings");
  const studyDay = section(page, "Study day");
  const utcHour = new Date().getUTCHours();
  const soon = (utcHour + 3) % 24;
  const label = `${String(soon).padStart(2, "0")}:00`;
  await studyDay.getByLabel("Day starts at").selectOption(label);
  await studyDay.getByText(`Your day starts at ${label}.`).waitFor();
  await studyDay.getByRole("button", { name: "Save study day" }).click();
  await studyDay.getByText("Study day saved.").waitFor();
  expect(await profileOf(account.id)).toMatchObject({ timezone: "UTC", day_starts_at: soon });

  await page.getByRole("link", { name: "Engram home" }).click();
  await row.getByText("Nothing due").waitFor();

  // In Tokyo that hour is nine hours later on the clock, so it comes round again only in
  // about eighteen hours: today holds the card again.
  await page.goto("/settings#study-day");
  await studyDay.getByText("Detected on this device: Asia/Tokyo").waitFor();
  await studyDay.getByRole("button", { name: "Use detected" }).click();
  expect(await studyDay.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");
  await studyDay.getByRole("button", { name: "Save study day" }).click();
  await studyDay.getByText("Study day saved.").waitFor();
  expect(await profileOf(account.id)).toMatchObject({ timezone: "Asia/Tokyo", day_starts_at: soon });
  await page.getByRole("link", { name: "Engram home" }).click();
  await expect.poll(dueText, poll).toBe("0 new 0 learning 1 review");
});

test("bad input gets a message beside its field and changes nothing", async () => {
  const account = await newAccount("bad");
  await setDisplayName(account.id, "Grace");
  const page = await openPage(browser());
  await openSettings(page, account);
  const before = await profileOf(account.id);

  const scheduling = section(page, "Scheduling");
  const retention = scheduling.getByLabel("Desired retention");
  await retention.fill("1.5");
  await scheduling.getByRole("button", { name: "Save scheduling" }).click();
  await scheduling.getByText("Desired retention must be at most 0.99.").waitFor();
  expect(await retention.getAttribute("aria-invalid")).toBe("true");
  // The explanation follows what is typed, honestly: 0.95 costs more than twice the reviews of 0.90.
  await retention.fill("0.95");
  await scheduling.getByText(/At 0\.95 you forget about 1 card in 20 when it comes due/).waitFor();
  await scheduling.getByText(/about 2\.5 times the reviews a day/).waitFor();

  const profile = section(page, "Profile");
  const name = profile.getByLabel("Display name");
  await name.fill("   ");
  await profile.getByRole("button", { name: "Save name" }).click();
  await profile.getByText("Enter the name others see on decks you share.").waitFor();
  await name.fill("G".repeat(81));
  await profile.getByRole("button", { name: "Save name" }).click();
  await profile.getByText("Names can be at most 80 characters.").waitFor();
  expect(await name.getAttribute("aria-invalid")).toBe("true");

  const big = Buffer.concat([redPng, Buffer.alloc(2 * 1024 * 1024)]);
  await profile.getByLabel("Add a picture").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: big });
  await profile.getByText("This picture is over 2 MB. Choose a smaller one.").waitFor();
  await profile
    .getByLabel("Add a picture")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await profile.getByText("This file can't be a picture. Use a PNG, JPEG, GIF or WebP image.").waitFor();
  await screenshot(page, "settings-errors");

  expect(await profileOf(account.id)).toEqual(before);
  const { data: files } = await adminClient().storage.from("avatars").list(account.id);
  expect(files ?? []).toEqual([]);
});

test("the workload chart simulates the year for the retention being chosen and names the one that costs least", async () => {
  const account = await newAccount("workload");
  const deckId = await seedDeck(account.id, "Verbs", basicNotes(60, "Verb"));
  // Forty of the sixty cards studied, last answered over the past weeks; twenty still new.
  const { data: cards, error } = await adminClient().from("cards").select("id").eq("deck_id", deckId).order("id");
  if (error) throw error;
  for (const [i, card] of cards.slice(0, 40).entries()) {
    const lastReview = Date.now() - (1 + (i % 20)) * 24 * hour;
    const stability = 2 + i;
    const { error: scheduled } = await adminClient()
      .from("card_states")
      .update({
        state: "review",
        stability,
        difficulty: 3 + (i % 6),
        scheduled_days: stability,
        last_review: new Date(lastReview).toISOString(),
        due: new Date(lastReview + stability * 24 * hour).toISOString(),
        reps: 3,
      })
      .eq("user_id", account.id)
      .eq("card_id", card.id);
    if (scheduled) throw scheduled;
  }

  const page = await openPage(browser());
  await openSettings(page, account);
  const workload = section(page, "Workload");
  await workload
    .getByRole("img", {
      name: /^Bar chart of reviews per day over the next year\. At 0\.90, about [\d.,]+ reviews? a day/,
    })
    .waitFor();
  await workload.getByText(/^At 0\.90, about [\d.,]+ reviews? a day over the next year/).waitFor();
  const recommendation = workload.getByText(/^Least work per card remembered: 0\.\d\d$/);
  await recommendation.waitFor();
  const recommended = (((await recommendation.textContent()) ?? "").match(/0\.\d\d/) ?? [""])[0];
  expect(Number(recommended)).toBeGreaterThanOrEqual(0.7);
  expect(Number(recommended)).toBeLessThanOrEqual(0.95);
  expect(await workload.getByRole("table").getByRole("row").count()).toBeGreaterThanOrEqual(13);
  await screenshot(page, "settings-workload");

  // Typing another retention simulates again; the button puts the recommended one in the field.
  const retention = section(page, "Scheduling").getByLabel("Desired retention");
  await retention.fill("0.99");
  await workload.getByText(/^At 0\.99, about [\d.,]+ reviews? a day/).waitFor();
  await workload.getByRole("button", { name: `Use ${recommended}` }).click();
  expect(await retention.inputValue()).toBe(recommended);
  await workload
    .getByText(new RegExp(`^At ${recommended.replace(".", "\\.")}, about [\\d.,]+ reviews? a day`))
    .waitFor();
});

test("the settings screen passes axe in light and dark, and fits a phone", async () => {
  const account = await newAccount("look");
  await setDisplayName(account.id, "Lin Wei");
  const page = await openPage(browser());
  await openSettings(page, account);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "settings-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "settings-phone");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await section(page, "Delete account").getByRole("button", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.waitFor();
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "settings-delete-phone");
});

test("deleting the account, confirmed with the email, removes the user's data and signs them out", async () => {
  const account = await newAccount("leaving");
  const deckId = await seedDeck(account.id, "Old notes", [{ front: "a", back: "b" }]);
  const page = await openPage(browser());
  await openSettings(page, account);
  const profile = section(page, "Profile");
  await profile.getByLabel("Add a picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: redPng });
  await profile.getByText("Picture saved.").waitFor();

  await section(page, "Delete account").getByRole("button", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  const confirm = dialog.getByLabel(`Type ${account.email} to confirm`);
  await confirm.fill("someone@else.test");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await dialog.getByText("Type your email exactly as shown above.").waitFor();
  expect(await profileOf(account.id)).not.toBeNull();

  await confirm.fill(account.email);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.getByText("Your account was deleted").waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  await page.getByRole("heading", { name: "Remember what you learn." }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }).waitFor();

  const admin = adminClient();
  expect(await profileOf(account.id)).toBeNull();
  const { data: decks } = await admin.from("decks").select("id").eq("owner_id", account.id);
  expect(decks).toEqual([]);
  const { data: deck } = await admin.from("decks").select("id").eq("id", deckId);
  expect(deck).toEqual([]);
  const { data: avatars } = await admin.storage.from("avatars").list(account.id);
  expect(avatars ?? []).toEqual([]);
  const { data: user } = await admin.auth.admin.getUserById(account.id);
  expect(user.user).toBeNull();
});

/** An authenticator app's code for a base32 secret now (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits). */
function totp(secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 15;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

test("two-factor sign-in: set up with the QR code's key, then the sign-in asks for the code; removing it turns it off", async () => {
  const account = await newAccount("totp");
  const page = await openPage(browser());
  await openSettings(page, account);
  const twoFactor = section(page, "Two-factor sign-in");
  await twoFactor.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const qr = twoFactor.getByRole("img", { name: "QR code to add Engram to your authenticator app" });
  // An SVG without a size of its own: decoding proves it is a real picture.
  expect(await qr.evaluate((img: HTMLImageElement) => img.decode().then(() => true))).toBe(true);
  const secret = (await twoFactor.locator(".setup-key").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await screenshot(page, "settings-two-factor-enrol");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // A wrong code is refused beside the field; the right one turns it on.
  const code = twoFactor.getByLabel("Enter the 6-digit code the app shows");
  const right = totp(secret);
  await code.fill(String((Number(right) + 1) % 1_000_000).padStart(6, "0"));
  await twoFactor.getByRole("button", { name: "Turn on" }).click();
  await twoFactor.getByText("That code didn't work. Enter the code your authenticator app shows now.").waitFor();
  await code.fill(totp(secret));
  await twoFactor.getByRole("button", { name: "Turn on" }).click();
  await twoFactor.getByText("Two-factor sign-in is on.").waitFor();
  await twoFactor.getByRole("list", { name: "Authenticator apps" }).getByText("Authenticator app").waitFor();
  await twoFactor.getByText("Lost your device? Remove the app here while you are still signed in").waitFor();

  // Signing in again: the password, then the code. Until then no protected screen opens.
  await signOut(page, account.email);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await signInWithPassword(page, account, "/sign-in?next=%2Fsettings");
  await page.getByRole("heading", { name: "Enter your code" }).waitFor();
  await screenshot(page, "sign-in-code");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.goto("/decks");
  await page.getByRole("heading", { name: "Enter your code" }).waitFor();
  expect(new URL(page.url()).searchParams.get("next")).toBe("/decks");
  await page.getByLabel("6-digit code").fill("12345");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByText("Enter the 6-digit code from your authenticator app.").first().waitFor();
  await page.getByLabel("6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByRole("heading", { level: 1, name: "Your decks" }).waitFor();

  // Removing the app: the next sign-in needs the password only.
  await page.goto("/settings#two-factor");
  await twoFactor.getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove the authenticator app?" });
  await dialog.getByRole("button", { name: "Remove" }).click();
  await twoFactor.getByText("Two-factor sign-in is off.").waitFor();
  await twoFactor.getByRole("button", { name: "Set up two-factor sign-in" }).waitFor();
  await signOut(page, account.email);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await signInWithPassword(page, account, "/sign-in?next=%2Fsettings");
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
});
