import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

describe("a new user", () => {
  test("gets a profile and can create a deck they own", async () => {
    const alice = await createUser(db, { displayName: "Alice" });
    const deck = await actAs(db, alice, async (tx) => {
      const [row] = await tx.query<{ id: string; owner_id: string }>(
        "insert into decks (name) values ('Capitals') returning id, owner_id",
      );
      return row;
    });
    expect(deck?.owner_id).toBe(alice.id);
    const members = await actAs(db, alice, (tx) =>
      tx.query("select role from deck_members where deck_id = $1", [deck?.id]),
    );
    expect(members).toEqual([{ role: "owner" }]);
  });
});
