/** The account itself: deleting it (an edge function, since it needs the service role). */
import type { createAuth } from "./auth.js";
import { fromFunctionsError, toEngramError } from "./errors.js";
import type { EngramClient } from "./supabase-client.js";

export function createAccount(supabase: EngramClient, auth: ReturnType<typeof createAuth>) {
  return {
    /** Deletes the signed-in user and everything they own, then signs out on this device. */
    async delete(): Promise<void> {
      let error: { name: string; message: string; context?: unknown } | null;
      try {
        ({ error } = await supabase.functions.invoke("delete-account", { method: "POST" }));
      } catch (thrown) {
        throw toEngramError(thrown);
      }
      if (error) throw await fromFunctionsError(error);
      await auth.signOut({ scope: "local" });
    },
  };
}
