import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import { addMember, addNotes, basic, createDeck, failure, only, type User } from "./support/study-fixtures.js";

// transfer_deck_ownership, invite_preview, explore_decks and the clone
// counter clone_deck keeps (docs/product.md §2 /explore, /invite/:token and deck
// settings, §4 invite states, §6 roles).

let db: Database;
let olga: User; // owns the decks below
let eddie: User; // edits Olga's "Anatomy"
let vera: User; // views it
let sam: User; // belongs to nothing of Olga's

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, eddie, vera, sam] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Eddie" }),
    createUser(db, { displayName: "Vera" }),
    createUser(db, { displayName: "Sam" }),
  ]);
});
afterAll(() => db.close());

/** A private deck of Olga's with Eddie as editor and Vera as viewer. */
async function sharedDeck(name = "Anatomy"): Promise<string> {
  const deck = await createDeck(db, olga, { name });
  await addMember(db, olga, deck, eddie, "editor");
  await addMember(db, olga, deck, vera, "viewer");
  return deck;
}

/** Everything about a deck its ownership touches, to compare before and after a call. */
async function ownership(deckId: string) {
  const [deck] = await db.query<{ owner_id: string; updated_at: Date }>(
    "select owner_id, updated_at from decks where id = $1",
    [deckId],
  );
  const members = await db.query<{ user_id: string; role: string }>(
    "select user_id, role from deck_members where deck_id = $1 order by user_id",
    [deckId],
  );
  return { deck, members };
}

const roles = async (deckId: string) =>
  Object.fromEntries(
    (
      await db.query<{ user_id: string; role: string }>("select user_id, role from deck_members where deck_id = $1", [
        deckId,
      ])
    ).map((row) => [row.user_id, row.role]),
  );

const transfer = (tx: Queryable, deckId: string, userId: string | null) =>
  tx.query("select transfer_deck_ownership($1, $2)", [deckId, userId]);

describe("transfer_deck_ownership", () => {
  test("makes the member the owner and the old owner an editor, who may then leave", async () => {
    const deck = await sharedDeck();
    await actAs(db, olga, (tx) => transfer(tx, deck, vera.id));

    expect(await roles(deck)).toEqual({ [olga.id]: "editor", [eddie.id]: "editor", [vera.id]: "owner" });
    expect((await ownership(deck)).deck?.owner_id).toBe(vera.id);
    // The new owner runs the deck; the old one edits it and can leave it.
    await actAs(db, vera, (tx) => tx.query("update decks set description = 'Handed over' where id = $1", [deck]));
    await actAs(db, vera, (tx) => tx.query("select create_invite($1)", [deck]));
    const refused = await probeAs(db, olga, (tx) => tx.query("select create_invite($1)", [deck]));
    expect(refused).toMatchObject({ ok: false, error: { code: "42501" } });
    const left = await actAs(db, olga, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2 returning role", [deck, olga.id]),
    );
    expect(left).toEqual([{ role: "editor" }]);
    expect(await roles(deck)).toEqual({ [eddie.id]: "editor", [vera.id]: "owner" });
  });

  test("can be handed on again by the new owner", async () => {
    const deck = await sharedDeck();
    await actAs(db, olga, (tx) => transfer(tx, deck, eddie.id));
    await actAs(db, eddie, (tx) => transfer(tx, deck, olga.id));
    expect(await roles(deck)).toEqual({ [olga.id]: "owner", [eddie.id]: "editor", [vera.id]: "viewer" });
    expect((await ownership(deck)).deck?.owner_id).toBe(olga.id);
  });

  const refusals: { who: string; actor: () => Actor; to: () => string | null; code: string; detail?: string }[] = [
    { who: "an editor", actor: () => eddie, to: () => vera.id, code: "42501" },
    { who: "a viewer", actor: () => vera, to: () => vera.id, code: "42501" },
    { who: "someone outside the deck", actor: () => sam, to: () => sam.id, code: "PT404", detail: "deck_id" },
    { who: "an anonymous caller", actor: () => anon, to: () => vera.id, code: "42501" },
    { who: "the owner, to themselves", actor: () => olga, to: () => olga.id, code: "22023", detail: "user_id" },
    { who: "the owner, to nobody", actor: () => olga, to: () => null, code: "22023", detail: "user_id" },
    { who: "the owner, to a non-member", actor: () => olga, to: () => sam.id, code: "PT404", detail: "user_id" },
  ];
  test.each(refusals)("refuses $who ($code) and changes nothing", async ({ actor, to, code, detail }) => {
    const deck = await sharedDeck();
    const before = await ownership(deck);
    const error = await failure(actAs(db, actor(), (tx) => transfer(tx, deck, to())));
    expect(error).toMatchObject({ code, ...(detail ? { detail } : {}) });
    expect(await ownership(deck)).toEqual(before);
  });

  test("refuses someone who can see a public deck but does not own it (42501)", async () => {
    const deck = await createDeck(db, olga, { name: "Open anatomy", isPublic: true });
    const before = await ownership(deck);
    const error = await failure(actAs(db, sam, (tx) => transfer(tx, deck, sam.id)));
    expect(error).toMatchObject({ code: "42501" });
    expect(await ownership(deck)).toEqual(before);
  });

  test("refuses a deck that does not exist (PT404 deck_id)", async () => {
    const error = await failure(actAs(db, olga, (tx) => transfer(tx, "00000000-0000-4000-8000-000000000000", vera.id)));
    expect(error).toMatchObject({ code: "PT404", detail: "deck_id" });
  });

  test("is not granted to anon at all, only to signed-in users", async () => {
    const [grants] = await db.query<{ anon: boolean; authenticated: boolean }>(
      `select has_function_privilege('anon', 'public.transfer_deck_ownership(uuid, uuid)', 'execute') as anon,
              has_function_privilege('authenticated', 'public.transfer_deck_ownership(uuid, uuid)', 'execute') as authenticated`,
    );
    expect(grants).toEqual({ anon: false, authenticated: true });
  });

  test("owners still cannot make anyone owner through the members table", async () => {
    const deck = await sharedDeck();
    const updated = await probeAs(db, olga, (tx) =>
      tx.query("update deck_members set role = 'owner' where deck_id = $1 and user_id = $2 returning role", [
        deck,
        eddie.id,
      ]),
    );
    expect(updated).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

interface PreviewRow {
  deck_id: string | null;
  deck_name: string;
  description: string | null;
  owner_name: string | null;
  note_count: number | null;
  role: string;
  status: string;
  expires_at: Date;
  is_member: boolean;
}

const preview = (actor: Actor, token: string | null) =>
  actAs(db, actor, (tx) => tx.query<PreviewRow>("select * from invite_preview($1)", [token]).then((r) => only(r)));

/** An invite to a deck of Olga's, made by her. */
const inviteTo = (deckId: string, role = "viewer", maxUses: number | null = null) =>
  actAs(db, olga, (tx) =>
    tx.query<{ id: string; token: string; expires_at: Date }>(
      "select id, token, expires_at from create_invite($1, $2, 7, $3)",
      [deckId, role, maxUses],
    ),
  ).then((rows) => only(rows));

describe("invite_preview", () => {
  let deck: string;
  beforeAll(async () => {
    deck = await createDeck(db, olga, { name: "Physiology" });
    await actAs(db, olga, (tx) =>
      tx.query("update decks set description = 'How the body works' where id = $1", [deck]),
    );
    await addNotes(db, olga, deck, [basic("Heart", "pump"), basic("Lung", "bellows"), basic("Kidney", "filter")]);
  });

  test("shows anyone holding the token the deck, its owner, the role and the state, and nothing else", async () => {
    const invite = await inviteTo(deck, "editor");
    expect(await preview(anon, invite.token)).toEqual({
      deck_id: deck,
      deck_name: "Physiology",
      description: "How the body works",
      owner_name: "Olga",
      note_count: 3,
      role: "editor",
      status: "active",
      expires_at: invite.expires_at,
      is_member: false,
    });
  });

  test("says whether the signed-in caller already belongs to the deck", async () => {
    const invite = await inviteTo(deck);
    expect((await preview(olga, invite.token)).is_member).toBe(true);
    expect((await preview(sam, invite.token)).is_member).toBe(false);
    const newcomer = await createUser(db);
    await actAs(db, newcomer, (tx) => tx.query("select accept_invite($1)", [invite.token]));
    expect((await preview(newcomer, invite.token)).is_member).toBe(true);
  });

  test("names no owner who has no display name", async () => {
    const nameless = await createUser(db);
    await db.query("update profiles set display_name = '' where id = $1", [nameless.id]);
    const own = await createDeck(db, nameless, { name: "Nameless" });
    const invite = only(
      await actAs(db, nameless, (tx) => tx.query<{ token: string }>("select token from create_invite($1)", [own])),
    );
    expect(await preview(anon, invite.token)).toMatchObject({ owner_name: null, note_count: 0 });
  });

  test("reports revoked, expired and used-up invites in accept_invite's order", async () => {
    const revoked = await inviteTo(deck);
    const expired = await inviteTo(deck);
    const usedUp = await inviteTo(deck, "viewer", 1);
    const revokedAndExpired = await inviteTo(deck);
    const expiredAndUsedUp = await inviteTo(deck, "viewer", 1);
    await actAs(db, sam, (tx) => tx.query("select accept_invite($1)", [usedUp.token]));
    const stranger = await createUser(db);
    await actAs(db, stranger, (tx) => tx.query("select accept_invite($1)", [expiredAndUsedUp.token]));
    await db.query("update deck_invites set revoked_at = now() where id = any($1)", [
      [revoked.id, revokedAndExpired.id],
    ]);
    await db.query("update deck_invites set expires_at = now() - interval '1 second' where id = any($1)", [
      [expired.id, revokedAndExpired.id, expiredAndUsedUp.id],
    ]);

    const statusOf = async (token: string) => (await preview(anon, token)).status;
    expect(await statusOf(revoked.token)).toBe("revoked");
    expect(await statusOf(expired.token)).toBe("expired");
    expect(await statusOf(usedUp.token)).toBe("used_up");
    expect(await statusOf(revokedAndExpired.token)).toBe("revoked");
    expect(await statusOf(expiredAndUsedUp.token)).toBe("expired");
  });

  test("a link that no longer works shows a non-member only the deck's name and owner; members still see the deck", async () => {
    const revoked = await inviteTo(deck, "editor");
    const expired = await inviteTo(deck);
    const usedUp = await inviteTo(deck, "viewer", 1);
    const joiner = await createUser(db);
    await actAs(db, joiner, (tx) => tx.query("select accept_invite($1)", [usedUp.token]));
    await db.query("update deck_invites set revoked_at = now() where id = $1", [revoked.id]);
    await db.query("update deck_invites set expires_at = now() - interval '1 second' where id = $1", [expired.id]);

    const outsider = await createUser(db);
    for (const [invite, status] of [
      [revoked, "revoked"],
      [expired, "expired"],
      [usedUp, "used_up"],
    ] as const) {
      for (const actor of [anon, outsider]) {
        expect(await preview(actor, invite.token)).toEqual({
          deck_id: null,
          deck_name: "Physiology",
          description: null,
          owner_name: "Olga",
          note_count: null,
          role: invite === revoked ? "editor" : "viewer",
          status,
          expires_at: expect.any(Date),
          is_member: false,
        });
      }
    }
    expect(await preview(joiner, usedUp.token)).toMatchObject({
      deck_id: deck,
      description: "How the body works",
      note_count: 3,
      status: "used_up",
      is_member: true,
    });
  });

  test("does not find an unknown, empty or missing token (PT404 token)", async () => {
    for (const token of ["not-a-token", "", null]) {
      const error = await failure(preview(anon, token));
      expect(error).toMatchObject({ code: "PT404", detail: "token" });
    }
  });

  test("changes nothing: previewing uses nothing up and joins nobody", async () => {
    const invite = await inviteTo(deck, "viewer", 1);
    const visitor = await createUser(db);
    await preview(visitor, invite.token);
    await preview(anon, invite.token);
    const [row] = await db.query<{ uses: number }>("select uses from deck_invites where id = $1", [invite.id]);
    expect(row?.uses).toBe(0);
    expect((await roles(deck))[visitor.id]).toBeUndefined();
  });
});

interface ExploreRow {
  id: string;
  name: string;
  description: string;
  is_public: boolean;
  archived_at: Date | null;
  clone_count: number;
  cloned_from: string | null;
  note_count: number;
  owner_name: string | null;
}

const explore = (actor: Actor, search: string | null, sort = "newest", limit = 30, offset = 0) =>
  actAs(db, actor, (tx) =>
    tx.query<ExploreRow>("select * from explore_decks($1, $2, $3, $4)", [search, sort, limit, offset]),
  );
const namesOf = (rows: ExploreRow[]) => rows.map((row) => row.name);

describe("explore_decks", () => {
  // Public decks whose names share "Zeugma" (so only they match), created a minute apart.
  const decks: Record<string, string> = {};
  beforeAll(async () => {
    const made: [string, boolean, string][] = [
      ["Zeugma rhetoric", true, "Figures of speech"],
      ["Zeugma history", true, "The ancient city"],
      ["Zeugma private", false, ""],
      ["Zeugma archived", true, ""],
      ["Greek roots", true, "Words like zeugma and 100% of the rest_of_it"],
    ];
    for (const [i, [name, isPublic, description]] of made.entries()) {
      const id = await createDeck(db, olga, { name, isPublic });
      await db.query(
        "update decks set description = $2, created_at = now() - make_interval(mins => $3) where id = $1",
        [id, description, 100 - i],
      );
      decks[name] = id;
    }
    await db.query("update decks set archived_at = now() where id = $1", [decks["Zeugma archived"]]);
    await addNotes(db, olga, decks["Zeugma rhetoric"] as string, [basic("Zeugma", "one verb, two objects")]);
  });

  test("lists public decks that are not archived, newest first, with notes, copies and the owner's name", async () => {
    const rows = await explore(anon, "zeugma");
    expect(namesOf(rows)).toEqual(["Greek roots", "Zeugma history", "Zeugma rhetoric"]);
    expect(rows.find((row) => row.name === "Zeugma rhetoric")).toMatchObject({
      id: decks["Zeugma rhetoric"],
      description: "Figures of speech",
      is_public: true,
      archived_at: null,
      note_count: 1,
      clone_count: 0,
      cloned_from: null,
      owner_name: "Olga",
    });
  });

  test("searches name and description case-insensitively, taking % and _ literally", async () => {
    expect(namesOf(await explore(anon, "ZEUGMA HIST"))).toEqual(["Zeugma history"]);
    expect(namesOf(await explore(anon, "ancient CITY"))).toEqual(["Zeugma history"]);
    expect(namesOf(await explore(anon, "100%"))).toEqual(["Greek roots"]);
    expect(namesOf(await explore(anon, "rest_of"))).toEqual(["Greek roots"]);
    expect(await explore(anon, "zeugma%history")).toEqual([]);
    expect(await explore(anon, "zeugma_history")).toEqual([]);
    // Blank searches match everything, like no search.
    const everything = await explore(anon, "   ", "newest", 100);
    expect(namesOf(everything)).toEqual(expect.arrayContaining(["Zeugma rhetoric", "Greek roots"]));
  });

  test("sorts by copies (newest first among equals) and pages", async () => {
    for (const cloner of [eddie, vera]) {
      await actAs(db, cloner, (tx) => tx.query("select clone_deck($1)", [decks["Zeugma rhetoric"]]));
    }
    await actAs(db, sam, (tx) => tx.query("select clone_deck($1)", [decks["Greek roots"]]));
    const rows = await explore(sam, "zeugma", "most_cloned");
    expect(rows.map((row) => [row.name, row.clone_count])).toEqual([
      ["Zeugma rhetoric", 2],
      ["Greek roots", 1],
      ["Zeugma history", 0],
    ]);
    expect(namesOf(await explore(sam, "zeugma", "most_cloned", 1, 1))).toEqual(["Greek roots"]);
    expect(namesOf(await explore(sam, "zeugma", "newest", 2, 1))).toEqual(["Zeugma history", "Zeugma rhetoric"]);
  });

  test.each([
    { what: "an unknown sort", args: ["x", "oldest", 30, 0], detail: "sort" },
    { what: "no sort", args: ["x", null, 30, 0], detail: "sort" },
    { what: "a page of 0", args: ["x", "newest", 0, 0], detail: "limit" },
    { what: "a page of 101", args: ["x", "newest", 101, 0], detail: "limit" },
    { what: "a negative offset", args: ["x", "newest", 30, -1], detail: "offset" },
    { what: "a search of 201 characters", args: ["x".repeat(201), "newest", 30, 0], detail: "search" },
  ])("refuses $what (22023 naming the argument)", async ({ args, detail }) => {
    const result = await probeAs(db, anon, (tx) => tx.query("select * from explore_decks($1, $2, $3, $4)", args));
    expect(result).toMatchObject({ ok: false, error: { code: "22023", detail } });
  });

  test("takes its defaults: newest first, 30 at a time", async () => {
    const rows = await actAs(db, anon, (tx) => tx.query<ExploreRow>("select * from explore_decks()"));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(30);
    expect(rows.every((row) => row.is_public && row.archived_at === null)).toBe(true);
  });
});

const counts = async (deckId: string) =>
  only(
    await db.query<{ clone_count: number; updated_at: Date }>(
      "select clone_count, updated_at from decks where id = $1",
      [deckId],
    ),
  );

describe("clone_deck and the clone counter", () => {
  test("records the source, counts the copy and leaves the source's updated_at alone", async () => {
    const source = await createDeck(db, olga, { name: "Counted", isPublic: true });
    const before = await counts(source);
    const copy = await actAs(db, sam, (tx) =>
      tx.query<{ id: string }>("select clone_deck($1) as id", [source]).then((rows) => only(rows).id),
    );
    const [row] = await db.query<{ cloned_from: string; clone_count: number; owner_id: string }>(
      "select cloned_from, clone_count, owner_id from decks where id = $1",
      [copy],
    );
    expect(row).toEqual({ cloned_from: source, clone_count: 0, owner_id: sam.id });
    expect(await counts(source)).toEqual({ clone_count: 1, updated_at: before.updated_at });

    // A copy deleted (as the SDK does when its media cannot be copied) no longer counts.
    await actAs(db, sam, (tx) => tx.query("delete from decks where id = $1", [copy]));
    expect(await counts(source)).toEqual({ clone_count: 0, updated_at: before.updated_at });
  });

  test("a source deleted leaves its copies with no source, their updated_at unchanged", async () => {
    const source = await createDeck(db, olga, { name: "Going away", isPublic: true });
    const copy = await actAs(db, sam, (tx) =>
      tx.query<{ id: string }>("select clone_deck($1) as id", [source]).then((rows) => only(rows).id),
    );
    const before = await counts(copy);
    await actAs(db, olga, (tx) => tx.query("delete from decks where id = $1", [source]));
    const [row] = await db.query<{ cloned_from: string | null }>("select cloned_from from decks where id = $1", [copy]);
    expect(row).toEqual({ cloned_from: null });
    expect(await counts(copy)).toEqual(before);
  });

  test("a refused clone counts nothing", async () => {
    const secret = await createDeck(db, olga, { name: "Secret" });
    const error = await failure(actAs(db, sam, (tx) => tx.query("select clone_deck($1)", [secret])));
    expect(error).toMatchObject({ code: "PT404", detail: "deck_id" });
    expect((await counts(secret)).clone_count).toBe(0);
  });

  test("neither the counter nor the source can be written by clients", async () => {
    const deck = await createDeck(db, olga, { name: "Tamper", isPublic: true });
    const other = await createDeck(db, olga, { name: "Other" });
    const attempts: [User, string, string[]][] = [
      [olga, "update decks set clone_count = 1000 where id = $1", [deck]],
      [olga, "update decks set cloned_from = $2 where id = $1", [deck, other]],
      [sam, "insert into decks (name, clone_count) values ('Inflated', 1000)", []],
      [sam, "insert into decks (name, cloned_from) values ('Posing as a copy', $1)", [deck]],
    ];
    for (const [actor, sql, params] of attempts) {
      const result = await probeAs(db, actor, (tx) => tx.query(sql, params));
      expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
    }
    expect((await counts(deck)).clone_count).toBe(0);
  });
});
