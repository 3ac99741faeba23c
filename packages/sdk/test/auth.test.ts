import { describe, expect, test, vi } from "vitest";
import type { SessionEvent } from "../src/auth.js";
import { createEngram } from "../src/client.js";
import { followLink, lastEmail, newAccount, signedIn, supabaseClient, uniqueEmail } from "./support/engram.js";

const callback = "http://127.0.0.1:3000/auth/callback";

/** A client as the browser app has it: PKCE, so every email link comes back with `?code=`. */
function pkceEngram() {
  const supabase = supabaseClient({ auth: { flowType: "pkce" } });
  return { supabase, engram: createEngram(supabase) };
}

describe("auth", () => {
  test("sign-up sends a confirmation link whose code signs the user in on the same client", async () => {
    const { engram } = pkceEngram();
    const email = uniqueEmail("signup");
    const result = await engram.auth.signUp({
      email,
      password: "correct horse",
      redirectTo: callback,
      displayName: "Ada",
    });
    expect(result.session).toBeNull();
    expect(result.user.email).toBe(email);
    await expect(engram.auth.signIn({ email, password: "correct horse" })).rejects.toMatchObject({
      code: "auth/email-not-confirmed",
    });

    const landing = await followLink((await lastEmail(email)).link);
    expect(`${landing.origin}${landing.pathname}`).toBe(callback);
    const session = await engram.auth.exchangeCode(landing.searchParams.get("code") ?? "");
    expect(session.user.email).toBe(email);
    expect((await engram.auth.getUser())?.id).toBe(result.user.id);
    expect((await engram.profile.get()).display_name).toBe("Ada");
  });

  test("completing a redirect reports the session the client holds, or link-expired when it has none", async () => {
    const { engram } = pkceEngram();
    await expect(engram.auth.completeRedirect()).rejects.toMatchObject({ code: "auth/link-expired" });
    const account = await newAccount();
    await engram.auth.signIn(account);
    expect((await engram.auth.completeRedirect()).user.id).toBe(account.id);
  });

  test("a confirmation code works once", async () => {
    const { engram } = pkceEngram();
    const email = uniqueEmail("once");
    await engram.auth.signUp({ email, password: "correct horse", redirectTo: callback });
    const code = (await followLink((await lastEmail(email)).link)).searchParams.get("code") ?? "";
    await engram.auth.exchangeCode(code);
    await expect(engram.auth.exchangeCode(code)).rejects.toMatchObject({ code: "auth/link-expired" });
    await expect(engram.auth.exchangeCode("")).rejects.toMatchObject({ code: "auth/link-expired" });
  });

  test("signing up twice with one email is refused as user-exists", async () => {
    const account = await newAccount();
    const { engram } = pkceEngram();
    await expect(engram.auth.signUp({ email: account.email, password: "another password" })).rejects.toMatchObject({
      code: "auth/user-exists",
    });
  });

  test("bad email or short password are refused before any request", async () => {
    const { engram } = pkceEngram();
    await expect(engram.auth.signUp({ email: "not-an-email", password: "long enough" })).rejects.toMatchObject({
      code: "validation",
      field: "email",
    });
    await expect(engram.auth.signUp({ email: uniqueEmail(), password: "short" })).rejects.toMatchObject({
      code: "auth/weak-password",
    });
  });

  test("a wrong password is invalid-credentials", async () => {
    const account = await newAccount();
    const { engram } = pkceEngram();
    await expect(engram.auth.signIn({ email: account.email, password: "wrong password" })).rejects.toMatchObject({
      code: "auth/invalid-credentials",
    });
    expect(await engram.auth.getSession()).toBeNull();
  });

  test("a magic link signs an existing user in", async () => {
    const account = await newAccount();
    const { engram } = pkceEngram();
    await engram.auth.sendMagicLink({ email: account.email, redirectTo: callback, createUser: false });
    const code = (await followLink((await lastEmail(account.email)).link)).searchParams.get("code") ?? "";
    const session = await engram.auth.exchangeCode(code);
    expect(session.user.id).toBe(account.id);
  });

  test("a reset link lets the user choose a new password, and only the new one works", async () => {
    const account = await newAccount();
    const { engram } = pkceEngram();
    await engram.auth.requestPasswordReset({ email: account.email, redirectTo: callback });
    const code = (await followLink((await lastEmail(account.email)).link)).searchParams.get("code") ?? "";
    await engram.auth.exchangeCode(code);
    await engram.auth.updatePassword("a brand new password");

    const fresh = createEngram(supabaseClient());
    await expect(fresh.auth.signIn({ email: account.email, password: account.password })).rejects.toMatchObject({
      code: "auth/invalid-credentials",
    });
    await fresh.auth.signIn({ email: account.email, password: "a brand new password" });
  });

  test("signing out here ends this session only; everywhere ends the others", async () => {
    const account = await newAccount();
    const phone = createEngram(supabaseClient());
    const laptop = createEngram(supabaseClient());
    await phone.auth.signIn(account);
    await laptop.auth.signIn(account);

    await phone.auth.signOut();
    expect(await phone.auth.getUser()).toBeNull();
    expect((await laptop.auth.getUser())?.id).toBe(account.id);

    await phone.auth.signIn(account);
    await phone.auth.signOut({ scope: "global" });
    await expect(laptop.auth.signOut()).resolves.toBeUndefined();
  });

  test("session events: signed-in, refreshed, and expired when the session ends elsewhere", async () => {
    const { engram, supabase, account } = await signedIn();
    const events: SessionEvent[] = [];
    const unsubscribe = engram.auth.onSessionChange((event) => events.push(event));
    await vi.waitFor(() => expect(events).toEqual(["signed-in"]));

    await supabase.auth.refreshSession();
    await vi.waitFor(() => expect(events).toEqual(["signed-in", "refreshed"]));

    // Another device signs out everywhere. Two hours later this client's access token has
    // expired and the server refuses its refresh token: the session is over.
    const other = createEngram(supabaseClient());
    await other.auth.signIn(account);
    await other.auth.signOut({ scope: "global" });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      await supabase.auth.refreshSession();
      await vi.waitFor(() => expect(events).toEqual(["signed-in", "refreshed", "expired"]));
      expect(await engram.auth.getSession()).toBeNull();
    } finally {
      vi.useRealTimers();
    }

    await engram.auth.signIn(account);
    await engram.auth.signOut();
    await vi.waitFor(() => expect(events.slice(3)).toEqual(["signed-in", "signed-out"]));
    unsubscribe();
  });

  test("calls that need a user fail with session-expired when nobody is signed in", async () => {
    const { engram } = pkceEngram();
    await expect(engram.profile.get()).rejects.toMatchObject({ code: "auth/session-expired" });
    expect(await engram.auth.getUser()).toBeNull();
  });
});

describe("profile", () => {
  test("the user reads and updates their own settings", async () => {
    const { engram } = await signedIn("settings", {}, { keepDefaults: true });
    const profile = await engram.profile.get();
    expect(profile).toMatchObject({ timezone: "UTC", day_starts_at: 4, desired_retention: 0.9, new_per_day: 20 });
    const updated = await engram.profile.update({ display_name: "Grace", timezone: "Europe/Berlin", new_per_day: 35 });
    expect(updated).toMatchObject({ display_name: "Grace", timezone: "Europe/Berlin", new_per_day: 35 });
  });

  test("an unknown time zone or a retention out of range is refused with the field, and nothing changes", async () => {
    const { engram } = await signedIn("settings");
    await expect(engram.profile.update({ timezone: "Mars/Olympus" })).rejects.toMatchObject({
      code: "validation",
      field: "timezone",
    });
    await expect(engram.profile.update({ desired_retention: 0.5 })).rejects.toMatchObject({
      code: "validation",
      field: "desired_retention",
    });
    expect(await engram.profile.get()).toMatchObject({ timezone: "UTC", desired_retention: 0.9 });
  });
});
