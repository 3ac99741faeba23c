import { fileURLToPath } from "node:url";
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { totpCode } from "../../src/auth/mfa.js";
import { png } from "../storage/helpers.js";
import { clientFor, stackPerFile } from "../support/stack.js";

// Engram's own delete-account function, end to end against Engram's real project.

const engramSupabaseDir = fileURLToPath(new URL("../../../../supabase/", import.meta.url));

const stack = stackPerFile({ supabaseDir: engramSupabaseDir });

/** A confirmed user with a deck, signed in on their own client. */
async function userWithDeck(): Promise<{ id: string; deckId: string; client: SupabaseClient }> {
  const email = `delete-${crypto.randomUUID()}@example.com`;
  const password = "correct horse battery";
  const { data, error } = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error("no user");
  const client = clientFor(stack);
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  const [deck] = await stack.stack.db.query<{ id: string }>(
    "insert into public.decks (owner_id, name) values ($1, 'Spanish') returning id",
    [data.user.id],
  );
  if (!deck) throw new Error("no deck");
  return { id: data.user.id, deckId: deck.id, client };
}

async function rowsOf(userId: string, deckId: string) {
  const count = async (sql: string, param: string) =>
    (await stack.stack.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, [param]))[0]?.n;
  return {
    users: await count("auth.users where id = $1", userId),
    profiles: await count("public.profiles where id = $1", userId),
    decks: await count("public.decks where id = $1", deckId),
  };
}

async function statusOf(error: unknown) {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: await response.json() };
}

describe("delete-account", () => {
  test("the signed-in user's account, profile and decks are deleted; others' are untouched", async () => {
    const leaving = await userWithDeck();
    const staying = await userWithDeck();
    expect(await rowsOf(leaving.id, leaving.deckId)).toEqual({ users: 1, profiles: 1, decks: 1 });

    const { data, error } = await leaving.client.functions.invoke("delete-account");
    expect(error).toBeNull();
    expect(data).toEqual({ deleted: true });

    expect(await rowsOf(leaving.id, leaving.deckId)).toEqual({ users: 0, profiles: 0, decks: 0 });
    expect(await rowsOf(staying.id, staying.deckId)).toEqual({ users: 1, profiles: 1, decks: 1 });
  });

  test("the user's avatar, imports, exports and the media of decks they own are deleted; others' files stay", async () => {
    const leaving = await userWithDeck();
    const staying = await userWithDeck();
    const admin = clientFor(stack, stack.serviceRoleKey);
    // Each bucket takes only its own types.
    const image = new Blob([png()], { type: "image/png" });
    const uploads: [string, string, Blob][] = [
      ["avatars", `${leaving.id}/face.png`, image],
      [
        "imports",
        `${leaving.id}/deck.apkg`,
        new Blob([new Uint8Array([0x50, 0x4b, 3, 4])], { type: "application/zip" }),
      ],
      ["exports", `${leaving.id}/deck.csv`, new Blob(["front,back\n"], { type: "text/csv" })],
      ["media", `${leaving.deckId}/cat.png`, image],
      ["media", `${leaving.deckId}/nested/dog.png`, image],
      ["avatars", `${staying.id}/face.png`, image],
      ["media", `${staying.deckId}/cat.png`, image],
    ];
    for (const [bucket, path, file] of uploads) {
      const { error } = await admin.storage.from(bucket).upload(path, file);
      if (error) throw error;
    }
    const objectsOf = async (...prefixes: string[]) =>
      (
        await stack.stack.db.query<{ path: string }>(
          "select bucket_id || '/' || name as path from storage.objects where split_part(name, '/', 1) = any($1) order by 1",
          [prefixes],
        )
      ).map((row) => row.path);
    expect(await objectsOf(leaving.id, leaving.deckId)).toHaveLength(5);

    const { error } = await leaving.client.functions.invoke("delete-account");
    expect(error).toBeNull();

    expect(await objectsOf(leaving.id, leaving.deckId)).toEqual([]);
    expect(await objectsOf(staying.id, staying.deckId)).toEqual([
      `avatars/${staying.id}/face.png`,
      `media/${staying.deckId}/cat.png`,
    ]);
  });

  test("an account with two-factor sign-in is deleted only from an aal2 session", async () => {
    const user = await userWithDeck();
    const { data: factor, error: enrollError } = await user.client.auth.mfa.enroll({ factorType: "totp" });
    if (enrollError || factor?.type !== "totp") throw enrollError ?? new Error("no factor");
    const verified = await user.client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(factor.totp.secret),
    });
    if (verified.error) throw verified.error;
    const { data: found } = await user.client.auth.getUser();
    const passwordOnly = clientFor(stack);
    const signIn = await passwordOnly.auth.signInWithPassword({
      email: found.user?.email ?? "",
      password: "correct horse battery",
    });
    if (signIn.error) throw signIn.error;

    const { error } = await passwordOnly.functions.invoke("delete-account");
    expect(await statusOf(error)).toEqual({
      status: 403,
      body: { code: "insufficient_aal", message: "Enter the code from your authenticator app to delete your account" },
    });
    expect(await rowsOf(user.id, user.deckId)).toEqual({ users: 1, profiles: 1, decks: 1 });

    const raised = await user.client.functions.invoke("delete-account");
    expect(raised.error).toBeNull();
    expect(await rowsOf(user.id, user.deckId)).toEqual({ users: 0, profiles: 0, decks: 0 });
  });

  test("without a user session (the anon key alone) it answers 401", async () => {
    const { error } = await clientFor(stack).functions.invoke("delete-account");
    expect(await statusOf(error)).toEqual({
      status: 401,
      body: { code: "not_authenticated", message: "Sign in to delete your account" },
    });
  });

  test("a forged token is refused by verify_jwt before the function runs", async () => {
    const client = clientFor(stack, stack.anonKey, {
      global: { headers: { Authorization: "Bearer forged.token.here" } },
    });
    const { error } = await client.functions.invoke("delete-account");
    expect(await statusOf(error)).toEqual({ status: 401, body: { msg: "Invalid JWT" } });
  });

  test("a GET is refused with 405 and the account stays", async () => {
    const user = await userWithDeck();
    const { error } = await user.client.functions.invoke("delete-account", { method: "GET" });
    expect((await statusOf(error)).status).toBe(405);
    expect(await rowsOf(user.id, user.deckId)).toEqual({ users: 1, profiles: 1, decks: 1 });
  });

  test("the token of an already deleted user is refused with 401", async () => {
    const user = await userWithDeck();
    const { data: session } = await user.client.auth.getSession();
    const token = session.session?.access_token ?? "";
    await clientFor(stack, stack.serviceRoleKey).auth.admin.deleteUser(user.id);
    const again = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
    const { error } = await again.functions.invoke("delete-account");
    expect((await statusOf(error)).status).toBe(401);
  });
});
