import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addMember,
  addNotes,
  basic,
  createDeck,
  failure,
  only,
  reversed,
  type User,
} from "./support/study-fixtures.js";

// create_invite and accept_invite (docs/product.md §3 deck_invites, §4 invite states,
// §6 only owners invite, §9 expiry 7 days; README: PT410 and PT413).

let db: Database;
let olga: User; // owns "Anatomy"
let eddie: User; // edits Anatomy
let stranger: User;
let anatomy: string;
let anatomyCards: string[];

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, eddie, stranger] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Eddie" }),
    createUser(db, { displayName: "Stranger" }),
  ]);
  anatomy = await createDeck(db, olga, { name: "Anatomy" });
  await addMember(db, olga, anatomy, eddie, "editor");
  const notes = await addNotes(db, olga, anatomy, [basic("Femur", "thigh bone"), reversed("Ulna", "forearm bone")]);
  anatomyCards = notes.flatMap((note) => note.cardIds);
});
afterAll(() => db.close());

interface InviteRow {
  id: string;
  token: string;
  deck_id: string;
  role: string;
  expires_at: Date;
  max_uses: number | null;
  uses: number;
  created_by: string;
  revoked_at: Date | null;
  created_at: Date;
}

async function createInvite(
  tx: Queryable,
  deckId: string,
  options: { role?: string; expiresInDays?: number; maxUses?: number | null } = {},
): Promise<InviteRow> {
  const rows = await tx.query<InviteRow>(
    `select * from create_invite(p_deck_id => $1, p_role => coalesce($2, 'viewer')::deck_role,
       p_expires_in_days => coalesce($3::int, 7), p_max_uses => $4)`,
    [deckId, options.role ?? null, options.expiresInDays ?? null, options.maxUses ?? null],
  );
  return only(rows, "invite");
}

async function acceptInvite(tx: Queryable, token: string): Promise<string> {
  const rows = await tx.query<{ deck_id: string }>("select accept_invite(p_token => $1) as deck_id", [token]);
  return only(rows).deck_id;
}

/** An invite to Anatomy made by its owner, committed. */
function invite(options: Parameters<typeof createInvite>[2] = {}): Promise<InviteRow> {
  return actAs(db, olga, (tx) => createInvite(tx, anatomy, options));
}

const inviteRow = (id: string) =>
  db.query<InviteRow>("select * from deck_invites where id = $1", [id]).then((rows) => only(rows));
const roleIn = (deckId: string, user: User) =>
  db.query<{ role: string }>("select role from deck_members where deck_id = $1 and user_id = $2", [deckId, user.id]);

describe("create_invite", () => {
  test("lets the owner invite with a role, an expiry and a number of uses", async () => {
    const result = await probeAs(db, olga, async (tx) => {
      const row = await createInvite(tx, anatomy, { role: "editor", expiresInDays: 3, maxUses: 5 });
      const [lifetime] = await tx.query<{ days: number }>(
        "select extract(epoch from expires_at - created_at)::int / 86400 as days from deck_invites where id = $1",
        [row.id],
      );
      return { row, lifetime: lifetime?.days };
    });
    expect(result).toEqual({
      ok: true,
      value: {
        row: {
          id: expect.any(String),
          token: expect.any(String),
          deck_id: anatomy,
          role: "editor",
          expires_at: expect.any(Date),
          max_uses: 5,
          uses: 0,
          created_by: olga.id,
          revoked_at: null,
          created_at: expect.any(Date),
        },
        lifetime: 3,
      },
    });
  });

  test("defaults to a viewer invite for any number of people, expiring after 7 days", async () => {
    const result = await probeAs(db, olga, async (tx) => {
      const [row] = await tx.query<{ role: string; max_uses: number | null; lifetime: string }>(
        `select i.role, i.max_uses, (i.expires_at - i.created_at)::text as lifetime
         from create_invite(p_deck_id => $1) as i`,
        [anatomy],
      );
      return row;
    });
    expect(result).toEqual({ ok: true, value: { role: "viewer", max_uses: null, lifetime: "7 days" } });
  });

  test("makes unguessable tokens: 32 URL-safe characters (192 random bits), all different", async () => {
    const result = await probeAs(db, olga, async (tx) => {
      const tokens: string[] = [];
      for (let i = 0; i < 20; i++) tokens.push((await createInvite(tx, anatomy)).token);
      return tokens;
    });
    if (!result.ok) throw result.error;
    const tokens = result.value;
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(24);
    }
    expect(new Set(tokens).size).toBe(20);
    // Random bytes use the whole alphabet; a counter or timestamp would not.
    expect(new Set(tokens.join("")).size).toBeGreaterThan(40);
  });

  test("refuses an editor of the deck (42501)", async () => {
    const result = await probeAs(db, eddie, (tx) => createInvite(tx, anatomy));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });

  test("does not find a private deck for someone outside it (PT404 deck_id)", async () => {
    const result = await probeAs(db, stranger, (tx) => createInvite(tx, anatomy));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "deck_id" } });
  });

  test("refuses someone who can see a public deck but does not own it (42501)", async () => {
    const publicDeck = await createDeck(db, olga, { name: "Open anatomy", isPublic: true });
    const result = await probeAs(db, stranger, (tx) => createInvite(tx, publicDeck));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });

  test.each([
    { what: "the owner role", options: { role: "owner" }, detail: "role" },
    { what: "0 days", options: { expiresInDays: 0 }, detail: "expires_in_days" },
    { what: "31 days", options: { expiresInDays: 31 }, detail: "expires_in_days" },
    { what: "0 uses", options: { maxUses: 0 }, detail: "max_uses" },
    { what: "1001 uses", options: { maxUses: 1001 }, detail: "max_uses" },
  ])("refuses $what (22023 naming the argument)", async ({ options, detail }) => {
    const result = await probeAs(db, olga, (tx) => createInvite(tx, anatomy, options));
    expect(result).toMatchObject({ ok: false, error: { code: "22023", detail } });
  });

  test("allows 20 active invites per deck and refuses the 21st (PT413)", async () => {
    const deck = await createDeck(db, olga, { name: "Quota" });
    const result = await probeAs(db, olga, async (tx) => {
      for (let i = 0; i < 20; i++) await createInvite(tx, deck);
      return createInvite(tx, deck);
    });
    expect(result).toMatchObject({ ok: false, error: { code: "PT413", detail: "invites" } });
  });

  test("does not count revoked, expired or used-up invites against the quota", async () => {
    const deck = await createDeck(db, olga, { name: "Quota, recycled" });
    const invites = await actAs(db, olga, async (tx) => {
      const rows: InviteRow[] = [];
      for (let i = 0; i < 20; i++) rows.push(await createInvite(tx, deck, { maxUses: 1 }));
      return rows;
    });
    const [revoked, expired, usedUp] = invites as [InviteRow, InviteRow, InviteRow];
    await actAs(db, olga, (tx) => tx.query("update deck_invites set revoked_at = now() where id = $1", [revoked.id]));
    await db.query("update deck_invites set expires_at = now() - interval '1 second' where id = $1", [expired.id]);
    await actAs(db, stranger, (tx) => acceptInvite(tx, usedUp.token));

    const result = await probeAs(db, olga, async (tx) => {
      for (let i = 0; i < 3; i++) await createInvite(tx, deck);
      return createInvite(tx, deck);
    });
    expect(result).toMatchObject({ ok: false, error: { code: "PT413" } });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => createInvite(tx, anatomy));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("accept_invite", () => {
  test("adds the caller with the invite's role, counts the use and returns the deck", async () => {
    const { id, token } = await invite({ role: "editor" });
    const newcomer = await createUser(db);

    expect(await actAs(db, newcomer, (tx) => acceptInvite(tx, token))).toBe(anatomy);
    expect(await roleIn(anatomy, newcomer)).toEqual([{ role: "editor" }]);
    expect((await inviteRow(id)).uses).toBe(1);
  });

  test("gives the new member a 'new' schedule for every card of the deck", async () => {
    const { token } = await invite();
    const newcomer = await createUser(db);
    await actAs(db, newcomer, (tx) => acceptInvite(tx, token));

    const states = await db.query<{ card_id: string; deck_id: string; state: string; reps: number; version: number }>(
      "select card_id, deck_id, state, reps, version from card_states where user_id = $1 order by card_id",
      [newcomer.id],
    );
    expect(states).toEqual(
      [...anatomyCards].sort().map((card) => ({ card_id: card, deck_id: anatomy, state: "new", reps: 0, version: 0 })),
    );
    expect(anatomyCards).toHaveLength(3); // basic + both directions of the reversed note
  });

  test("accepting again as a member changes nothing, uses nothing up and returns the deck", async () => {
    const { id, token } = await invite({ role: "editor", maxUses: 1 });
    const newcomer = await createUser(db);
    await actAs(db, newcomer, (tx) => acceptInvite(tx, token));

    // The invite is now used up, yet the member following the link again just lands in the deck.
    expect(await actAs(db, newcomer, (tx) => acceptInvite(tx, token))).toBe(anatomy);
    expect((await inviteRow(id)).uses).toBe(1);
    expect(await roleIn(anatomy, newcomer)).toEqual([{ role: "editor" }]);
  });

  test("an existing member following an invite keeps their role and uses nothing up", async () => {
    const { id, token } = await invite({ role: "viewer" });
    expect(await actAs(db, eddie, (tx) => acceptInvite(tx, token))).toBe(anatomy);
    expect(await roleIn(anatomy, eddie)).toEqual([{ role: "editor" }]);
    expect((await inviteRow(id)).uses).toBe(0);
  });

  test("refuses a second person once max_uses is reached (PT410 used_up)", async () => {
    const { token } = await invite({ maxUses: 1 });
    const [first, second] = await Promise.all([createUser(db), createUser(db)]);
    await actAs(db, first, (tx) => acceptInvite(tx, token));

    const error = await failure(actAs(db, second, (tx) => acceptInvite(tx, token)));
    expect(error).toMatchObject({ code: "PT410", detail: "used_up" });
    expect(await roleIn(anatomy, second)).toEqual([]);
  });

  test("refuses an expired invite (PT410 expired)", async () => {
    const { id, token } = await invite();
    // Seven days pass.
    await db.query("update deck_invites set expires_at = now() - interval '1 second' where id = $1", [id]);
    const newcomer = await createUser(db);

    const error = await failure(actAs(db, newcomer, (tx) => acceptInvite(tx, token)));
    expect(error).toMatchObject({ code: "PT410", detail: "expired" });
    expect(await roleIn(anatomy, newcomer)).toEqual([]);
    expect((await inviteRow(id)).uses).toBe(0);
  });

  test("refuses a revoked invite (PT410 revoked)", async () => {
    const { id, token } = await invite();
    await actAs(db, olga, (tx) => tx.query("update deck_invites set revoked_at = now() where id = $1", [id]));
    const newcomer = await createUser(db);

    const error = await failure(actAs(db, newcomer, (tx) => acceptInvite(tx, token)));
    expect(error).toMatchObject({ code: "PT410", detail: "revoked" });
    expect(await roleIn(anatomy, newcomer)).toEqual([]);
  });

  test("a revoked invite stays revoked: the owner cannot clear revoked_at", async () => {
    const { id } = await invite();
    await actAs(db, olga, (tx) => tx.query("update deck_invites set revoked_at = now() where id = $1", [id]));

    const cleared = await actAs(db, olga, (tx) =>
      tx.query("update deck_invites set revoked_at = null where id = $1 returning id", [id]),
    );
    expect(cleared).toEqual([]);
    expect((await inviteRow(id)).revoked_at).not.toBeNull();
  });

  test("does not find an unknown token (PT404 token)", async () => {
    const result = await probeAs(db, stranger, (tx) => acceptInvite(tx, "not-a-real-token-not-a-real-tok"));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "token" } });
  });

  test("a member who left and comes back finds their schedules as they were", async () => {
    const { token } = await invite();
    const returning = await createUser(db);
    await actAs(db, returning, (tx) => acceptInvite(tx, token));
    const card = anatomyCards[0] as string;
    await db.query(
      "update card_states set state = 'review', reps = 3, version = 3 where user_id = $1 and card_id = $2",
      [returning.id, card],
    );
    await actAs(db, returning, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = auth.uid()", [anatomy]),
    );

    await actAs(db, returning, (tx) => acceptInvite(tx, token));
    const [state] = await db.query("select state, reps, version from card_states where user_id = $1 and card_id = $2", [
      returning.id,
      card,
    ]);
    expect(state).toEqual({ state: "review", reps: 3, version: 3 });
  });

  test("cannot be called anonymously", async () => {
    const { token } = await invite();
    const result = await probeAs(db, anon, (tx) => acceptInvite(tx, token));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});
