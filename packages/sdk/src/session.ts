/** The signed-in user, read from the client's stored session (no request). */

import { EngramError, fromAuthError } from "./errors.js";
import type { EngramClient } from "./supabase-client.js";

/** The current user's id; throws `auth/session-expired` when nobody is signed in. */
export async function currentUserId(supabase: EngramClient): Promise<string> {
  const { data, error } = await supabase.auth.getSession();
  if (error) throw fromAuthError(error);
  const id = data.session?.user.id;
  if (!id) throw new EngramError("auth/session-expired", "Sign in to continue.");
  return id;
}
