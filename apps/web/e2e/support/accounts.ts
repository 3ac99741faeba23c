/** Users for the browser tests, made through the stack's admin API so each test starts from a known account. */
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { app } from "./browser.js";

export interface Account {
  id: string;
  email: string;
  password: string;
}

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

/** Node 20 has no global WebSocket for supabase-js to find; these clients never open realtime. */
class NoRealtime {
  constructor() {
    throw new Error("The browser tests' Node clients do not use realtime.");
  }
}

/** supabase-js as a server script uses it: no stored session, no timers. */
export function nodeClient(key = app().anonKey) {
  return createClient(app().stackUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoRealtime as never },
  });
}

export const adminClient = () => nodeClient(app().serviceRoleKey);

/**
 * A confirmed account with a password. Its study day starts twelve hours from
 * now (UTC), so "today" cannot roll over while a test runs. Its name (the
 * email's part before the @) counts as chosen, so publishing and inviting go
 * straight on; `nameChosen: false` leaves it as a new user's, who is asked first.
 */
export async function newAccount(prefix = "user", { nameChosen = true } = {}): Promise<Account> {
  const email = uniqueEmail(prefix);
  const password = `pw-${randomUUID()}`;
  const { data, error } = await adminClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    ...(nameChosen ? { user_metadata: { display_name_chosen: true } } : {}),
  });
  if (error || !data.user) throw error ?? new Error("the admin API returned no user");
  await startDayFarFromNow(data.user.id);
  return { id: data.user.id, email, password };
}

/** Puts the user's day start twelve hours away (in UTC), so the study day does not end during a test. */
export async function startDayFarFromNow(userId: string) {
  const hour = (new Date().getUTCHours() + 12) % 24;
  const { error } = await adminClient()
    .from("profiles")
    .update({ timezone: "UTC", day_starts_at: hour })
    .eq("id", userId);
  if (error) throw error;
}
