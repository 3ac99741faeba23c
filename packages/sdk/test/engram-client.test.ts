import { beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { createEngram } from "../src/client.js";
import { createEngramClient } from "../src/engram-client.js";
import { exportDeck } from "../src/transfer/index.js";
import { type SignedIn, signedIn, stack } from "./support/engram.js";

async function accessTokenOf({ supabase }: SignedIn): Promise<string> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) throw new Error("not signed in");
  return data.session.access_token;
}

describe("createEngramClient", () => {
  let alice: SignedIn;
  let bob: SignedIn;
  let aliceDeckId: string;
  let bobDeckId: string;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([signedIn("token-alice"), signedIn("token-bob")]);
    const [aliceDeck, bobDeck] = await Promise.all([
      alice.engram.decks.create({ name: "Alice's verbs" }),
      bob.engram.decks.create({ name: "Bob's nouns" }),
    ]);
    aliceDeckId = aliceDeck.id;
    bobDeckId = bobDeck.id;
    await alice.engram.notes.create(aliceDeckId, { kind: "basic", fields: { front: "hablar", back: "to speak" } });
  });

  /** A client whose callback returns whatever `token.current` holds when a request goes out. */
  function borrowing(initial: string | null) {
    const token = { current: initial, asked: 0 };
    const supabase = createEngramClient({
      url: stack().url,
      key: stack().anonKey,
      webSocket: WebSocket as never,
      accessToken: async () => {
        token.asked++;
        return token.current;
      },
    });
    const visibleDecks = async () => {
      const { data, error } = await supabase.from("decks").select("id").in("id", [aliceDeckId, bobDeckId]);
      if (error) throw error;
      return data.map((deck) => deck.id);
    };
    return { supabase, token, visibleDecks };
  }

  test("each request carries the token the callback returns at that moment, and RLS answers for its user", async () => {
    const { token, visibleDecks } = borrowing(await accessTokenOf(alice));
    expect(await visibleDecks()).toEqual([aliceDeckId]);

    const askedBefore = token.asked;
    token.current = await accessTokenOf(bob);
    expect(await visibleDecks()).toEqual([bobDeckId]);
    expect(token.asked).toBeGreaterThan(askedBefore);

    token.current = null;
    expect(await visibleDecks()).toEqual([]);
  });

  test("the transfer functions run on it as the token's user", async () => {
    const { supabase, token } = borrowing(await accessTokenOf(alice));
    const engram = createEngram(supabase);

    // Her own tags on her notes come along, read through the borrowed token.
    const [note] = await alice.engram.notes.list(aliceDeckId).then((page) => page.notes);
    await alice.engram.personalNotes.save(note?.id as string, { tags: ["irregular"], text: "" });
    const file = await exportDeck(engram, aliceDeckId, { format: "csv" });
    expect(new TextDecoder().decode(file.data)).toContain("hablar,to speak,irregular");

    token.current = await accessTokenOf(bob);
    await expect(exportDeck(engram, aliceDeckId, { format: "csv" })).rejects.toMatchObject({ code: "not-found" });
  });

  test("Realtime joins a deck's private room with the token's user, whose membership decides", async () => {
    const joinAliceRoom = async (token: string) => {
      const { supabase } = borrowing(token);
      // Realtime receives the token asynchronously; a join sent before it arrives goes as anonymous.
      await supabase.realtime.setAuth();
      const status = await new Promise<string>((resolve) => {
        supabase.channel(`deck:${aliceDeckId}`, { config: { private: true } }).subscribe((status) => resolve(status));
      });
      await supabase.removeAllChannels();
      return status;
    };
    expect(await joinAliceRoom(await accessTokenOf(alice))).toBe("SUBSCRIBED");
    expect(await joinAliceRoom(await accessTokenOf(bob))).toBe("CHANNEL_ERROR");
  });

  test("it keeps no session of its own: supabase.auth is refused", () => {
    const { supabase } = borrowing(null);
    expect(() => supabase.auth.getSession()).toThrow(/accessToken/);
  });
});
