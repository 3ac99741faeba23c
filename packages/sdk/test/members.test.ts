import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { type SignedIn, signedIn } from "./support/engram.js";

/** An owner's deck with one more member joined through an invite. */
async function sharedDeck(role: "editor" | "viewer") {
  const owner = await signedIn("owner");
  const member = await signedIn(role);
  const deck = await owner.engram.decks.create({ name: "Anatomy" });
  const invite = await owner.engram.invites.create(deck.id, { role });
  await member.engram.invites.accept(invite.token);
  return { owner, member, deck };
}

const idOf = (user: SignedIn) => user.account.id;

describe("members", () => {
  test("members see each other's names and roles, owner first", async () => {
    const { owner, member, deck } = await sharedDeck("viewer");
    await owner.engram.profile.update({ display_name: "Olga" });
    const members = await member.engram.members.list(deck.id);
    expect(members).toEqual([
      expect.objectContaining({ user_id: idOf(owner), role: "owner", display_name: "Olga", avatar_path: null }),
      expect.objectContaining({ user_id: idOf(member), role: "viewer" }),
    ]);
  });

  test("someone outside a private deck cannot list its members", async () => {
    const { deck } = await sharedDeck("viewer");
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.members.list(deck.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(stranger.engram.members.setRole(deck.id, idOf(stranger), "editor")).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(stranger.engram.members.remove(deck.id, idOf(stranger))).rejects.toMatchObject({
      code: "not-found",
    });
  });

  test("the owner makes a viewer an editor", async () => {
    const { owner, member, deck } = await sharedDeck("viewer");
    await owner.engram.members.setRole(deck.id, idOf(member), "editor");
    const roles = (await member.engram.members.list(deck.id)).map((m) => m.role);
    expect(roles).toEqual(["owner", "editor"]);
  });

  test("an editor cannot change roles and the change is not made", async () => {
    const { owner, member, deck } = await sharedDeck("editor");
    const viewer = await signedIn("viewer");
    await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    await expect(member.engram.members.setRole(deck.id, idOf(viewer), "editor")).rejects.toMatchObject({
      code: "permission-denied",
    });
    expect((await owner.engram.members.list(deck.id)).find((m) => m.user_id === idOf(viewer))?.role).toBe("viewer");
  });

  test("the owner's own role cannot be changed, and owner is not a role to give", async () => {
    const { owner, member, deck } = await sharedDeck("editor");
    await expect(owner.engram.members.setRole(deck.id, idOf(owner), "viewer")).rejects.toMatchObject({
      code: "permission-denied",
      rule: "owner_is_fixed",
    });
    const error = await owner.engram.members.setRole(deck.id, idOf(member), "owner" as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation" });
    expect((await owner.engram.members.list(deck.id)).map((m) => m.role)).toEqual(["owner", "editor"]);
  });

  test("changing the role of someone who is not a member is not found", async () => {
    const { owner, deck } = await sharedDeck("viewer");
    const stranger = await signedIn("stranger");
    await expect(owner.engram.members.setRole(deck.id, idOf(stranger), "editor")).rejects.toMatchObject({
      code: "not-found",
    });
  });

  test("the owner removes a member, who then no longer sees the deck", async () => {
    const { owner, member, deck } = await sharedDeck("editor");
    await owner.engram.members.remove(deck.id, idOf(member));
    expect(await owner.engram.members.list(deck.id)).toHaveLength(1);
    await expect(member.engram.decks.get(deck.id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("a viewer cannot remove anyone; nobody can remove the owner", async () => {
    const { owner, member, deck } = await sharedDeck("viewer");
    await expect(member.engram.members.remove(deck.id, idOf(owner))).rejects.toMatchObject({
      code: "permission-denied",
    });
    await expect(owner.engram.members.remove(deck.id, idOf(owner))).rejects.toMatchObject({
      code: "permission-denied",
    });
    expect(await owner.engram.members.list(deck.id)).toHaveLength(2);
  });

  test("a member leaves a deck", async () => {
    const { owner, member, deck } = await sharedDeck("viewer");
    await member.engram.members.leave(deck.id);
    expect((await owner.engram.members.list(deck.id)).map((m) => m.user_id)).toEqual([idOf(owner)]);
    expect(await member.engram.decks.list()).toEqual([]);
  });

  test("the owner cannot leave their deck", async () => {
    const { owner, deck } = await sharedDeck("viewer");
    const error = await owner.engram.members.leave(deck.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "permission-denied", rule: "owner_cannot_leave" });
    expect((error as Error).message).toMatch(/owner cannot leave/);
    expect(await owner.engram.members.list(deck.id)).toHaveLength(2);
  });

  test("leaving a deck one is not in is not found", async () => {
    const { deck } = await sharedDeck("viewer");
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.members.leave(deck.id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("a malformed deck id fails validation", async () => {
    const { engram } = await signedIn();
    await expect(engram.members.list("deck-1")).rejects.toMatchObject({ code: "validation" });
  });
});
