/**
 * What the browser benchmarks share: a service-role client of the stack, a
 * new confirmed user, Chromium as these machines have it, signing in through
 * the app's form, and a line summing up samples.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { type Browser, chromium, type Page } from "playwright-core";

/** Node 20 has no WebSocket; the benchmarks' Node clients never open realtime. */
class NoRealtime {
  constructor() {
    throw new Error("no realtime in the benchmark's Node client");
  }
}

export function adminClient(stackUrl: string, serviceRoleKey: string) {
  return createClient(stackUrl, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoRealtime as never },
  });
}

export type BenchUser = { userId: string; email: string; password: string };

export async function newUser(admin: ReturnType<typeof adminClient>): Promise<BenchUser> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw error ?? new Error("no user");
  return { userId: data.user.id, email, password };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Signs in with the form, to `next` once signed in; the caller waits for the screen it expects. */
export async function signIn(page: Page, user: Pick<BenchUser, "email" | "password">, next?: string) {
  await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Median and p95 of `samples` (ms), with their range and count. */
export function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms (min ${sorted[0]?.toFixed(0)}, max ${sorted.at(-1)?.toFixed(0)}, n=${sorted.length})`;
}
