import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { newAccount, uniqueEmail } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { countEmails, nextEmail } from "./support/mailbox.js";
import { accountMenu, decksHeading, signInWithPassword, signOut } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;

beforeEach(async () => {
  page = await openPage(browser());
});

describe("sign-up", () => {
  test("a new user signs up, opens the confirmation link and lands signed in on their decks", async () => {
    const email = uniqueEmail("signup");
    await page.goto("/sign-up");
    await screenshot(page, "sign-up");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();

    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    expect(await page.getByRole("status").filter({ hasText: email }).count()).toBe(1);
    await screenshot(page, "sign-up-check-email");

    const mail = await nextEmail(email);
    expect(mail.link).toContain("/auth/v1/verify");
    await page.goto(mail.link);

    await decksHeading(page).waitFor();
    expect(new URL(page.url()).pathname).toBe("/decks");
    // The account menu is a chunk of its own, loaded once the signed-in shell is drawn.
    await accountMenu(page, email).waitFor();
    await screenshot(page, "decks-empty");
  });

  test("a password that is too short is explained beside the field", async () => {
    await page.goto("/sign-up");
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("short"));
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create account" }).click();

    const password = page.getByLabel("Password", { exact: true });
    await page.locator(".field-error").waitFor();
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await password.getAttribute("aria-describedby")) ?? "";
    const error = page.locator(`[id="${describedBy.split(" ").at(-1)}"]`);
    expect(await error.textContent()).toBe("Choose a different password of at least 8 characters.");
    expect(await page.getByRole("alert").textContent()).toContain(
      "Choose a different password of at least 8 characters.",
    );
    await screenshot(page, "sign-up-invalid");
    expect(new URL(page.url()).pathname).toBe("/sign-up");
  });
});

describe("sign-in", () => {
  test("a user signs out and signs back in with their password", async () => {
    const account = await newAccount("password");
    await page.goto("/sign-in");
    await screenshot(page, "sign-in");
    await signInWithPassword(page, account, "");
    await decksHeading(page).waitFor();

    await signOut(page, account.email);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByText("Your session ended").count()).toBe(0);
    expect(await accountMenu(page, account.email).count()).toBe(0);

    await signInWithPassword(page, account, "");
    await decksHeading(page).waitFor();
    expect(new URL(page.url()).pathname).toBe("/decks");
  });

  test("a wrong password is refused with a message and the user stays signed out", async () => {
    const account = await newAccount("wrong");
    await signInWithPassword(page, { email: account.email, password: "not-the-password" });

    const alert = page.getByRole("alert").filter({ hasText: "don't match" });
    await alert.waitFor();
    expect(await alert.textContent()).toBe("That email and password don't match. Check them and try again.");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(await page.getByRole("button", { name: "Sign in", exact: true }).isEnabled()).toBe(true);
    await screenshot(page, "sign-in-wrong-password");
  });

  test("a sign-in link from the email signs the user in", async () => {
    const account = await newAccount("magic");
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    await screenshot(page, "sign-in-link-sent");

    const mail = await nextEmail(account.email);
    await page.goto(mail.link);
    await decksHeading(page).waitFor();
    await accountMenu(page, account.email).waitFor();
  });

  test("a link that was already used says so and offers a new one", async () => {
    const account = await newAccount("used");
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const mail = await nextEmail(account.email);
    await page.goto(mail.link);
    await decksHeading(page).waitFor();
    await signOut(page, account.email);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();

    await page.goto(mail.link);
    await page.getByRole("heading", { name: "This link didn't work" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toBe(
      "This link has expired or was already used. Ask for a new one.",
    );
    await screenshot(page, "auth-callback-expired");
    await page.getByRole("link", { name: "Ask for a new sign-in link" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await accountMenu(page, account.email).count()).toBe(0);
  });

  test("a callback with a code this browser did not ask for is refused", async () => {
    await page.goto("/auth/callback?code=not-a-real-code&next=%2Fdecks");
    await page.getByRole("heading", { name: "This link didn't work" }).waitFor();
    expect(await page.getByRole("link", { name: "Ask for a new sign-in link" }).getAttribute("href")).toBe("/sign-in");
  });
});

describe("password reset", () => {
  test("a user resets a forgotten password from the email and signs in with the new one", async () => {
    const account = await newAccount("reset");
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    await screenshot(page, "forgot-password");
    const before = await countEmails(account.email);
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();

    const mail = await nextEmail(account.email, before);
    await page.goto(mail.link);
    await page.getByRole("heading", { name: "Set a new password" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/reset-password");
    await screenshot(page, "reset-password");
    const newPassword = "a brand new passphrase";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("heading", { name: "Password changed" }).waitFor();
    await screenshot(page, "password-changed");

    await signOut(page, account.email);
    await signInWithPassword(page, account);
    await page.getByRole("alert").filter({ hasText: "don't match" }).waitFor();

    await signInWithPassword(page, { email: account.email, password: newPassword });
    await decksHeading(page).waitFor();
  });
});
