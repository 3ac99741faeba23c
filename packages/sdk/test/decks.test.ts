import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { adminClient, signedIn } from "./support/engram.js";

describe("decks", () => {
  test("a new deck is listed with the owner role and can be renamed and deleted", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "  Organic chemistry  " });
    expect(deck.name).toBe("Organic chemistry");
    expect(await engram.decks.list()).toEqual([expect.objectContaining({ id: deck.id, role: "owner" })]);

    const renamed = await engram.decks.rename(deck.id, "Chemistry II");
    expect(renamed.name).toBe("Chemistry II");

    await engram.decks.remove(deck.id);
    expect(await engram.decks.list()).toEqual([]);
    await expect(engram.decks.get(deck.id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("deleting a deck deletes its media files; another deck's files stay", async () => {
    const { engram } = await signedIn();
    const doomed = await engram.decks.create({ name: "Doomed" });
    const kept = await engram.decks.create({ name: "Kept" });
    const image = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7])], {
      type: "image/png",
    });
    await engram.storage.uploadMedia(doomed.id, image, { name: "cat.png" });
    await engram.storage.uploadMedia(kept.id, image, { name: "dog.png" });
    const files = async (deckId: string) =>
      ((await adminClient().storage.from("media").list(deckId)).data ?? []).map((file) => file.name);
    expect(await files(doomed.id)).toEqual(["cat.png"]);

    await engram.decks.remove(doomed.id);
    expect(await files(doomed.id)).toEqual([]);
    expect(await files(kept.id)).toEqual(["dog.png"]);
  });

  test("an empty name is refused before any request with the field at fault", async () => {
    const { engram } = await signedIn();
    const error = await engram.decks.create({ name: "   " }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "name" });
    expect(await engram.decks.list()).toEqual([]);
  });

  test("someone else's private deck is not found; their public deck cannot be renamed or deleted", async () => {
    const owner = await signedIn("owner");
    const other = await signedIn("other");
    const secret = await owner.engram.decks.create({ name: "Secret" });
    await expect(other.engram.decks.get(secret.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(other.engram.decks.remove(secret.id)).rejects.toMatchObject({ code: "not-found" });

    const shared = await owner.engram.decks.create({ name: "Shared", is_public: true });
    await expect(other.engram.decks.rename(shared.id, "Mine now")).rejects.toMatchObject({ code: "permission-denied" });
    await expect(other.engram.decks.remove(shared.id)).rejects.toMatchObject({ code: "permission-denied" });
    expect((await owner.engram.decks.get(shared.id)).name).toBe("Shared");
  });

  test("public decks can be found by name and cloned", async () => {
    const owner = await signedIn("owner");
    const learner = await signedIn("learner");
    const word = `Zebrafish${Date.now()}`;
    const deck = await owner.engram.decks.create({ name: `${word} anatomy`, is_public: true });
    const found = await learner.engram.decks.explore({ search: word });
    expect(found.map((d) => d.id)).toEqual([deck.id]);

    const copyId = await learner.engram.decks.clone(deck.id, "My zebrafish");
    expect(await learner.engram.decks.list()).toEqual([
      expect.objectContaining({ id: copyId, role: "owner", name: "My zebrafish" }),
    ]);
  });

  test("the owner changes description, limits and visibility; a bad limit changes nothing", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "Kanji" });
    const updated = await engram.decks.update(deck.id, {
      description: "JLPT N5",
      is_public: true,
      new_per_day: 10,
      reviews_per_day: null,
    });
    expect(updated).toMatchObject({ description: "JLPT N5", is_public: true, new_per_day: 10, reviews_per_day: null });
    await expect(engram.decks.update(deck.id, { new_per_day: -1 })).rejects.toMatchObject({
      code: "validation",
      field: "new_per_day",
    });
    expect((await engram.decks.get(deck.id)).new_per_day).toBe(10);
  });
});
