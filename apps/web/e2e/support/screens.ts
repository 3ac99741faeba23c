/** Steps several tests share, written as a user performs them. */
import type { Page } from "playwright-core";
import type { Account } from "./accounts.js";

/** Signs in with the password form from wherever the page is (`path` defaults to /sign-in). */
export async function signInWithPassword(page: Page, account: Pick<Account, "email" | "password">, path = "/sign-in") {
  if (path) await page.goto(path);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export const decksHeading = (page: Page) => page.getByRole("heading", { level: 1, name: "Your decks" });

export const accountMenu = (page: Page, email: string) => page.getByRole("button", { name: new RegExp(email) });

export async function signOut(page: Page, email: string, everywhere = false) {
  await accountMenu(page, email).click();
  await page.getByRole("menuitem", { name: everywhere ? "Sign out everywhere" : "Sign out", exact: true }).click();
}
