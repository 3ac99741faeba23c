/**
 * The signed-in user deletes their own account. Their files go first, so a
 * failure leaves an account that a retry finishes deleting; then deleting the
 * auth user cascades through Engram's tables (every user-owned row references
 * auth.users on delete cascade).
 */
import { env } from "../_shared/env.ts";
import { supabaseWith } from "../_shared/supabase.ts";
import { removeAccountFiles } from "./files.ts";

const json = (body: unknown, status: number, headers?: Record<string, string>) =>
  Response.json(body, { status, ...(headers ? { headers } : {}) });

export default async function handler(req: Request): Promise<Response> {
  if (req.method !== "POST" && req.method !== "DELETE") {
    return json({ code: "method_not_allowed", message: "Use POST or DELETE" }, 405, { allow: "POST, DELETE" });
  }
  const token = /^bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!token) return json({ code: "not_authenticated", message: "Sign in to delete your account" }, 401);

  // Who is calling: the token must be a live user session, not an API key.
  const auth = supabaseWith(env("SUPABASE_ANON_KEY")).auth;
  const { data, error } = await auth.getUser(token);
  if (error || !data.user) return json({ code: "not_authenticated", message: "Sign in to delete your account" }, 401);

  // With two-factor sign-in, the password alone (aal1) is not enough to delete the account.
  if (data.user.factors?.some((factor) => factor.status === "verified")) {
    const { data: verified } = await auth.getClaims(token);
    if (verified?.claims.aal !== "aal2") {
      return json(
        { code: "insufficient_aal", message: "Enter the code from your authenticator app to delete your account" },
        403,
      );
    }
  }

  const admin = supabaseWith(env("SUPABASE_SERVICE_ROLE_KEY"));
  try {
    await removeAccountFiles(admin, data.user.id);
  } catch {
    return json({ code: "delete_failed", message: "The account's files could not be deleted" }, 500);
  }
  const { error: deleteError } = await admin.auth.admin.deleteUser(data.user.id);
  if (deleteError) {
    return json({ code: "delete_failed", message: "The account could not be deleted" }, 500);
  }
  return json({ deleted: true }, 200);
}
