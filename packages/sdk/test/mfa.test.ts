import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createEngram } from "../src/client.js";
import { signedIn, supabaseClient } from "./support/engram.js";

/** What an authenticator app shows for a base32 secret (RFC 6238: SHA-1, 6 digits, 30 s). */
function authenticatorCode(secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 15;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A six-digit code the app shows at none of the steps the server accepts. */
function wrongCode(secret: string): string {
  const accepted = [-1, 0, 1].map((step) => authenticatorCode(secret, Date.now() + step * 30_000));
  return ["000000", "111111", "222222", "333333"].find((code) => !accepted.includes(code)) ?? "444444";
}

describe("two-factor sign-in", () => {
  test("an engram over an accessToken client (no auth module, as in a worker) builds and works", async () => {
    const { engram: signedInEngram, supabase } = await signedIn("worker");
    const deck = await signedInEngram.decks.create({ name: "Read in a worker" });
    const token = (await supabase.auth.getSession()).data.session?.access_token ?? "";
    const engram = createEngram(supabaseClient({ accessToken: async () => token }));
    expect((await engram.decks.get(deck.id)).name).toBe("Read in a worker");
  });

  test("enrol, verify to aal2; a password sign-in is aal1 and sees no data; removing the app turns it off", async () => {
    const { engram, account } = await signedIn("mfa");
    expect(await engram.auth.mfa.assurance()).toEqual({ current: "aal1", next: "aal1" });
    const deck = await engram.decks.create({ name: "Before two-factor" });

    const enrolment = await engram.auth.mfa.enrollTotp({ friendlyName: "Phone" });
    expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(enrolment.uri).toContain(encodeURIComponent(account.email));
    expect(await engram.auth.mfa.listFactors()).toEqual([
      { id: enrolment.factorId, friendlyName: "Phone", status: "unverified", createdAt: expect.any(String) },
    ]);

    await expect(engram.auth.mfa.verifyTotp(enrolment.factorId, "12 34")).rejects.toMatchObject({
      code: "validation",
      field: "code",
    });
    await expect(engram.auth.mfa.verifyTotp(enrolment.factorId, wrongCode(enrolment.secret))).rejects.toMatchObject({
      code: "validation",
      field: "code",
    });
    const code = authenticatorCode(enrolment.secret);
    await engram.auth.mfa.verifyTotp(enrolment.factorId, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(await engram.auth.mfa.assurance()).toEqual({ current: "aal2", next: "aal2" });
    expect(await engram.auth.mfa.listFactors()).toEqual([expect.objectContaining({ status: "verified" })]);
    expect((await engram.decks.list()).map((listed) => listed.id)).toEqual([deck.id]);

    // A new sign-in by password alone: the database answers nothing and refuses writes.
    const later = createEngram(supabaseClient());
    await later.auth.signIn({ email: account.email, password: account.password });
    expect(await later.auth.mfa.assurance()).toEqual({ current: "aal1", next: "aal2" });
    expect(await later.decks.list()).toEqual([]);
    await expect(later.decks.create({ name: "Sneaky" })).rejects.toMatchObject({ code: "permission-denied" });
    await expect(later.auth.mfa.unenroll(enrolment.factorId)).rejects.toMatchObject({ code: "permission-denied" });
    // A new password and deleting the account wait for the code too, and say so.
    const needsCode = { code: "permission-denied", rule: "aal2" };
    await expect(later.auth.updatePassword("a brand new password")).rejects.toMatchObject(needsCode);
    await expect(later.account.delete()).rejects.toMatchObject(needsCode);

    // Removed from the aal2 session, the app no longer stands between the password and the data.
    await engram.auth.mfa.unenroll(enrolment.factorId);
    expect(await engram.auth.mfa.listFactors()).toEqual([]);
    expect(await engram.auth.mfa.assurance()).toEqual({ current: "aal1", next: "aal1" });
    expect((await engram.decks.list()).map((listed) => listed.id)).toEqual([deck.id]);
    expect((await later.decks.list()).map((listed) => listed.id)).toEqual([deck.id]);
  });

  test("a code is accepted once: entered again on another sign-in it ends every session of the user", async () => {
    const { engram, supabase, account } = await signedIn("mfa-once");
    const enrolment = await engram.auth.mfa.enrollTotp();
    const code = authenticatorCode(enrolment.secret);
    await engram.auth.mfa.verifyTotp(enrolment.factorId, code);
    await engram.decks.create({ name: "Mine" });

    const elsewhere = createEngram(supabaseClient());
    await elsewhere.auth.signIn({ email: account.email, password: account.password });
    await expect(elsewhere.auth.mfa.verifyTotp(enrolment.factorId, code)).rejects.toMatchObject({
      code: "auth/session-expired",
      rule: "code_reused",
    });
    expect(await elsewhere.auth.getSession()).toBeNull();
    // The first session ended with it: its token, still unexpired, reads nothing.
    expect(await supabase.from("decks").select("id")).toMatchObject({ data: [], error: null });
  });

  test("starting again replaces an unfinished enrolment; an unknown factor is not-found", async () => {
    const { engram } = await signedIn("mfa-again");
    const first = await engram.auth.mfa.enrollTotp();
    const second = await engram.auth.mfa.enrollTotp();
    expect(second.factorId).not.toBe(first.factorId);
    expect((await engram.auth.mfa.listFactors()).map((factor) => factor.id)).toEqual([second.factorId]);
    await expect(engram.auth.mfa.verifyTotp("00000000-0000-4000-8000-000000000000", "123456")).rejects.toMatchObject({
      code: "not-found",
    });
  });

  test("signed out, assurance says the session has ended", async () => {
    const engram = createEngram(supabaseClient());
    await expect(engram.auth.mfa.assurance()).rejects.toMatchObject({ code: "auth/session-expired" });
  });
});
