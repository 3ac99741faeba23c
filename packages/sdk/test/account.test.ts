import { describe, expect, test } from "vitest";
import { createEngram } from "../src/client.js";
import { adminClient, signedIn, supabaseClient } from "./support/engram.js";

describe("account", () => {
  test("deleting the account removes the user and what they own, and signs out", async () => {
    const { engram, account } = await signedIn("leaving");
    const deck = await engram.decks.create({ name: "Mine" });
    await engram.account.delete();

    expect(await engram.auth.getSession()).toBeNull();
    const admin = adminClient();
    const { data } = await admin.auth.admin.getUserById(account.id);
    expect(data.user).toBeNull();
    const { data: decks } = await admin.from("decks").select("id").eq("id", deck.id);
    expect(decks).toEqual([]);
    await expect(createEngram(supabaseClient()).auth.signIn(account)).rejects.toMatchObject({
      code: "auth/invalid-credentials",
    });
  });

  test("deleting without a session is refused as session-expired", async () => {
    const engram = createEngram(supabaseClient());
    await expect(engram.account.delete()).rejects.toMatchObject({ code: "auth/session-expired" });
  });
});

describe("study settings", () => {
  test("the scheduler follows the user's desired retention", async () => {
    const { engram } = await signedIn("retention");
    expect((await engram.study.scheduler()).desiredRetention).toBe(0.9);
    await engram.profile.update({ desired_retention: 0.85 });
    expect((await engram.study.scheduler()).desiredRetention).toBe(0.85);
  });
});
