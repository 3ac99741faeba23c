import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { adminClient, signedIn } from "./support/engram.js";

async function ownerWithDeck() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Law of contract" });
  return { owner, deck };
}

describe("invites", () => {
  test("an invite made by the owner lets someone join with its role", async () => {
    const { owner, deck } = await ownerWithDeck();
    const invite = await owner.engram.invites.create(deck.id, { role: "editor", max_uses: 5 });
    expect(invite).toMatchObject({ deck_id: deck.id, role: "editor", max_uses: 5, uses: 0, status: "active" });
    expect(invite.token.length).toBeGreaterThanOrEqual(32);

    const guest = await signedIn("guest");
    expect(await guest.engram.invites.accept(invite.token)).toBe(deck.id);
    expect(await guest.engram.decks.list()).toEqual([expect.objectContaining({ id: deck.id, role: "editor" })]);
    expect((await owner.engram.invites.list(deck.id))[0]).toMatchObject({ id: invite.id, uses: 1 });
  });

  test("invites default to viewer for seven days with no use limit", async () => {
    const { owner, deck } = await ownerWithDeck();
    const before = Date.now();
    const invite = await owner.engram.invites.create(deck.id, { role: "viewer" });
    const days = (new Date(invite.expires_at).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect(invite.max_uses).toBeNull();
  });

  test("an invite input out of range fails validation before any request", async () => {
    const { owner, deck } = await ownerWithDeck();
    const error = await owner.engram.invites.create(deck.id, { role: "viewer", expires_in_days: 31 }).catch((e) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "expires_in_days" });
    await expect(owner.engram.invites.create(deck.id, { role: "owner" as never })).rejects.toMatchObject({
      code: "validation",
      field: "role",
    });
    expect(await owner.engram.invites.list(deck.id)).toEqual([]);
  });

  test("a deck has at most 20 active invites; the 21st is quota-exceeded", async () => {
    const { owner, deck } = await ownerWithDeck();
    for (let i = 0; i < 20; i++) await owner.engram.invites.create(deck.id, { role: "viewer" });
    const error = await owner.engram.invites.create(deck.id, { role: "viewer" }).catch((e) => e);
    expect(error).toMatchObject({ code: "quota-exceeded", field: "invites" });
    expect(await owner.engram.invites.list(deck.id)).toHaveLength(20);

    // A revoked invite no longer counts.
    const first = (await owner.engram.invites.list(deck.id))[0];
    await owner.engram.invites.revoke(first?.id ?? "");
    await expect(owner.engram.invites.create(deck.id, { role: "viewer" })).resolves.toMatchObject({ status: "active" });
  });

  test("only the owner creates or lists invites", async () => {
    const { owner, deck } = await ownerWithDeck();
    const editor = await signedIn("editor");
    await editor.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "editor" })).token);
    await expect(editor.engram.invites.create(deck.id, { role: "viewer" })).rejects.toMatchObject({
      code: "permission-denied",
    });
    await expect(editor.engram.invites.list(deck.id)).rejects.toMatchObject({ code: "permission-denied" });

    const stranger = await signedIn("stranger");
    await expect(stranger.engram.invites.create(deck.id, { role: "viewer" })).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(stranger.engram.invites.list(deck.id)).rejects.toMatchObject({ code: "not-found" });
    expect(await owner.engram.invites.list(deck.id)).toHaveLength(1);
  });

  test("a revoked invite cannot be accepted (not-found, rule revoked)", async () => {
    const { owner, deck } = await ownerWithDeck();
    const invite = await owner.engram.invites.create(deck.id, { role: "viewer" });
    const revoked = await owner.engram.invites.revoke(invite.id);
    expect(revoked).toMatchObject({ id: invite.id, status: "revoked" });
    // Revoking twice changes nothing.
    expect((await owner.engram.invites.revoke(invite.id)).revoked_at).toBe(revoked.revoked_at);

    const guest = await signedIn("guest");
    await expect(guest.engram.invites.accept(invite.token)).rejects.toMatchObject({
      code: "not-found",
      rule: "revoked",
    });
    expect(await guest.engram.decks.list()).toEqual([]);
  });

  test("someone other than the owner cannot revoke an invite", async () => {
    const { owner, deck } = await ownerWithDeck();
    const invite = await owner.engram.invites.create(deck.id, { role: "viewer" });
    const guest = await signedIn("guest");
    await guest.engram.invites.accept(invite.token);
    await expect(guest.engram.invites.revoke(invite.id)).rejects.toMatchObject({ code: "not-found" });
    expect((await owner.engram.invites.list(deck.id))[0]?.status).toBe("active");
  });

  test("an expired invite cannot be accepted (not-found, rule expired)", async () => {
    const { owner, deck } = await ownerWithDeck();
    const invite = await owner.engram.invites.create(deck.id, { role: "viewer" });
    const { error } = await adminClient()
      .from("deck_invites")
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq("id", invite.id);
    expect(error).toBeNull();
    expect((await owner.engram.invites.list(deck.id))[0]?.status).toBe("expired");

    const guest = await signedIn("guest");
    await expect(guest.engram.invites.accept(invite.token)).rejects.toMatchObject({
      code: "not-found",
      rule: "expired",
    });
  });

  test("a used-up invite cannot be accepted (not-found, rule used_up)", async () => {
    const { owner, deck } = await ownerWithDeck();
    const invite = await owner.engram.invites.create(deck.id, { role: "viewer", max_uses: 1 });
    const first = await signedIn("first");
    await first.engram.invites.accept(invite.token);
    // Accepting again as a member uses nothing up.
    expect(await first.engram.invites.accept(invite.token)).toBe(deck.id);
    expect((await owner.engram.invites.list(deck.id))[0]).toMatchObject({ uses: 1, status: "used_up" });

    const second = await signedIn("second");
    await expect(second.engram.invites.accept(invite.token)).rejects.toMatchObject({
      code: "not-found",
      rule: "used_up",
    });
  });

  test("an unknown token is not found; an empty one fails validation", async () => {
    const guest = await signedIn("guest");
    await expect(guest.engram.invites.accept("no-such-token")).rejects.toMatchObject({ code: "not-found" });
    await expect(guest.engram.invites.accept("  ")).rejects.toMatchObject({ code: "validation" });
  });
});
