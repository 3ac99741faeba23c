/** Decks, cards and schedules for the study screen's browser tests, made through the SDK and the admin client. */
import { createEngram, type Engram } from "@engram/sdk";
import type { Page } from "playwright-core";
import { type Account, adminClient, nodeClient } from "./support/accounts.js";
import { signInWithPassword } from "./support/screens.js";

/** The SDK signed in as the account, as a script would use it. */
export async function engramFor(account: Account): Promise<Engram> {
  const client = nodeClient();
  const { error } = await client.auth.signInWithPassword({ email: account.email, password: account.password });
  if (error) throw error;
  return createEngram(client as never);
}

/** The user's answers as the server stored them, oldest first. */
export async function reviewLogs(userId: string) {
  const { data, error } = await adminClient()
    .from("review_logs")
    .select("client_review_id, card_id, rating")
    .eq("user_id", userId)
    .order("reviewed_at");
  if (error) throw error;
  return data;
}

/** How many new cards a day the user may study (20 unless set). */
export async function setNewPerDay(userId: string, count: number) {
  const { error } = await adminClient().from("profiles").update({ new_per_day: count }).eq("id", userId);
  if (error) throw error;
}

/** Moves a card's due time (e.g. a learning card due later than the session's look-ahead). */
export async function setDue(userId: string, cardId: string, due: Date) {
  const { error } = await adminClient()
    .from("card_states")
    .update({ due: due.toISOString() })
    .eq("user_id", userId)
    .eq("card_id", cardId);
  if (error) throw error;
}

export async function openStudy(page: Page, account: Account, deckId?: string) {
  const path = deckId ? `/decks/${deckId}/study` : "/study";
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent(path)}`);
  await page.waitForURL((url) => url.pathname === path);
}

export const cardArea = (page: Page) => page.locator(".study-card");
export const showAnswer = (page: Page) => page.getByRole("button", { name: /Show answer/ });
export const answerButton = (page: Page, name: "Again" | "Hard" | "Good" | "Easy") =>
  page.getByRole("button", { name: new RegExp(`^${name} `) });
export const counts = (page: Page) => page.getByRole("list", { name: "Cards left" });

/** The three numbers as Anki shows them: new, learning, review. */
export async function countsText(page: Page): Promise<string> {
  return (await counts(page).innerText()).replace(/\s+/g, " ").trim();
}

/** Matches a face whose text ends with `text`: an answer side shows the question first. */
export const endsWith = (text: string) => new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
