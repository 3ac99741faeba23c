import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";

async function signedIn() {
  const email = uniqueEmail();
  await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
  const client = clientFor(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error("no session");
  return { client, email, session: data.session };
}

/** Ages a refresh token's revocation past the reuse interval. */
const ageToken = (token: string) =>
  stack.stack.db.query("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1", [
    token,
  ]);

describe("refresh tokens", () => {
  it("rotates: the refresh returns a new token whose parent is the old one", async () => {
    const { client, session } = await signedIn();
    const { data, error } = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toMatch(/^[a-z2-7]{12}$/);
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    const rows = await stack.stack.db.query<{ token: string; parent: string | null; revoked: boolean }>(
      "select token, parent, revoked from auth.refresh_tokens where session_id = (select session_id from auth.refresh_tokens where token = $1) order by id",
      [session.refresh_token],
    );
    expect(rows).toEqual([
      { token: session.refresh_token, parent: null, revoked: true },
      { token: data.session?.refresh_token, parent: session.refresh_token, revoked: false },
    ]);
  });

  it("returns the active token again when the parent is reused (a retry)", async () => {
    const { client, session } = await signedIn();
    const first = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    const retry = await clientFor(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(retry.error).toBeNull();
    expect(retry.data.session?.refresh_token).toBe(first.data.session?.refresh_token);
  });

  it("still accepts an older token within the reuse interval, issuing it a new child", async () => {
    const { session } = await signedIn();
    const a = await clientFor(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    const b = await clientFor(stack).auth.refreshSession({ refresh_token: a.data.session?.refresh_token ?? "" });
    const reused = await clientFor(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reused.error).toBeNull();
    expect(reused.data.session?.refresh_token).not.toBe(b.data.session?.refresh_token);
    expect(reused.data.session?.refresh_token).not.toBe(a.data.session?.refresh_token);
  });

  it("revokes the whole family when an old token is reused after the interval", async () => {
    const { session } = await signedIn();
    const a = await clientFor(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    const b = await clientFor(stack).auth.refreshSession({ refresh_token: a.data.session?.refresh_token ?? "" });
    await ageToken(session.refresh_token);
    const reused = await clientFor(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.code).toBe("refresh_token_already_used");
    expect(reused.error?.message).toBe("Invalid Refresh Token: Already Used");
    await ageToken(b.data.session?.refresh_token ?? "");
    const current = await clientFor(stack).auth.refreshSession({ refresh_token: b.data.session?.refresh_token ?? "" });
    expect(current.error?.code).toBe("refresh_token_already_used");
  });

  it("rejects an unknown token as refresh_token_not_found", async () => {
    const { error } = await clientFor(stack).auth.refreshSession({ refresh_token: "aaaaaaaaaaaa" });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("refresh_token_not_found");
    expect(error?.message).toBe("Invalid Refresh Token: Refresh Token Not Found");
  });
});

describe("audit log", () => {
  it("records sign-ins, refreshes and sign-outs in auth.audit_log_entries as GoTrue does", async () => {
    const { client, email, session } = await signedIn();
    await client.auth.refreshSession({ refresh_token: session.refresh_token });
    await client.auth.signOut();
    const rows = await stack.stack.db.query<{ payload: Record<string, unknown> }>(
      "select payload from auth.audit_log_entries where payload ->> 'actor_username' = $1 order by created_at",
      [email],
    );
    const actions = rows.map((row) => (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload));
    expect(actions.map((payload) => payload.action)).toEqual(["login", "token_refreshed", "logout"]);
    expect(actions[0]).toMatchObject({ log_type: "account", actor_via_sso: false, traits: { provider: "email" } });
  });
});

describe("GET and PUT /user", () => {
  it("returns the user of the access token", async () => {
    const { client, email, session } = await signedIn();
    const { data, error } = await client.auth.getUser(session.access_token);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities).toHaveLength(1);
  });

  it("rejects a token signed with another secret as bad_jwt", async () => {
    const { session } = await signedIn();
    const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1] ?? "", "base64url").toString());
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode("not-the-project-secret-not-the-project-secret"));
    const { data, error } = await clientFor(stack).auth.getUser(forged);
    expect(data.user).toBeNull();
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("bad_jwt");
  });

  it("rejects an expired token as bad_jwt", async () => {
    const { session } = await signedIn();
    const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1] ?? "", "base64url").toString());
    const now = Math.floor(Date.now() / 1000);
    const expired = await stack.stack.keys.sign({ ...claims, iat: now - 7200, exp: now - 3600 });
    const { error } = await clientFor(stack).auth.getUser(expired);
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("bad_jwt");
  });

  it("rejects the anon key, which has no user, as bad_jwt", async () => {
    const { error } = await clientFor(stack).auth.getUser(stack.anonKey);
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("bad_jwt");
  });

  it("updates user metadata, merging keys", async () => {
    const { client, session } = await signedIn();
    await client.auth.setSession(session);
    await client.auth.updateUser({ data: { theme: "dark", plan: "free" } });
    const { data, error } = await client.auth.updateUser({ data: { plan: "pro" } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ theme: "dark", plan: "pro", email_verified: true });
  });

  it("changes the password, rejecting the same or a weak one", async () => {
    const { client, email, session } = await signedIn();
    await client.auth.setSession(session);
    const same = await client.auth.updateUser({ password });
    expect(same.error?.code).toBe("same_password");
    expect(same.error?.status).toBe(422);
    const weak = await client.auth.updateUser({ password: "123" });
    expect(weak.error?.code).toBe("weak_password");
    const changed = await client.auth.updateUser({ password: "a brand new password" });
    expect(changed.error).toBeNull();
    const old = await clientFor(stack).auth.signInWithPassword({ email, password });
    expect(old.error?.code).toBe("invalid_credentials");
    const fresh = await clientFor(stack).auth.signInWithPassword({ email, password: "a brand new password" });
    expect(fresh.error).toBeNull();
  });

  it("signs out the user's other sessions when the password changes", async () => {
    const { client, email, session } = await signedIn();
    const other = (await clientFor(stack).auth.signInWithPassword({ email, password })).data.session;
    await client.auth.setSession(session);
    expect((await client.auth.updateUser({ password: "yet another password" })).error).toBeNull();
    expect((await clientFor(stack).auth.getUser(session.access_token)).error).toBeNull();
    const { error } = await clientFor(stack).auth.getUser(other?.access_token);
    expect(error?.name).toBe("AuthSessionMissingError");
  });
});

describe("sign out", () => {
  async function threeSessions() {
    const { email, session: first } = await signedIn();
    const second = (await clientFor(stack).auth.signInWithPassword({ email, password })).data.session;
    const third = (await clientFor(stack).auth.signInWithPassword({ email, password })).data.session;
    if (!second || !third) throw new Error("no session");
    return [first, second, third] as const;
  }
  const alive = async (token: string) => !(await clientFor(stack).auth.getUser(token)).error;

  it("scope local ends only the current session", async () => {
    const [first, second, third] = await threeSessions();
    const client = clientFor(stack);
    await client.auth.setSession(first);
    expect((await client.auth.signOut({ scope: "local" })).error).toBeNull();
    expect(await alive(first.access_token)).toBe(false);
    expect(await alive(second.access_token)).toBe(true);
    expect(await alive(third.access_token)).toBe(true);
    const refresh = await clientFor(stack).auth.refreshSession({ refresh_token: first.refresh_token });
    expect(refresh.error?.code).toBe("refresh_token_not_found");
  });

  it("scope others keeps only the current session", async () => {
    const [first, second, third] = await threeSessions();
    const client = clientFor(stack);
    await client.auth.setSession(first);
    expect((await client.auth.signOut({ scope: "others" })).error).toBeNull();
    expect(await alive(first.access_token)).toBe(true);
    expect(await alive(second.access_token)).toBe(false);
    expect(await alive(third.access_token)).toBe(false);
  });

  it("scope global ends every session; the old access token then reports session_not_found", async () => {
    const [first, second] = await threeSessions();
    const client = clientFor(stack);
    await client.auth.setSession(first);
    expect((await client.auth.signOut()).error).toBeNull();
    const { error } = await clientFor(stack).auth.getUser(second.access_token);
    expect(error?.name).toBe("AuthSessionMissingError");
    const raw = await fetch(`${stack.url}/auth/v1/user`, {
      headers: {
        apikey: stack.anonKey,
        authorization: `Bearer ${second.access_token}`,
        "x-supabase-api-version": "2024-01-01",
      },
    });
    expect(raw.status).toBe(403);
    expect(((await raw.json()) as { code: string }).code).toBe("session_not_found");
  });
});
