import { describe, expect, test, vi } from "vitest";
import type { EngramError } from "../src/errors.js";
import type { DeckPresence, EditingSignal } from "../src/realtime.js";
import { adminClient, type SignedIn, signedIn } from "./support/engram.js";

/** Waits for an assertion to hold; realtime delivery on a busy two-core CI can take a while. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

async function sharedDeck() {
  const owner = await signedIn("owner");
  const editor = await signedIn("editor");
  const deck = await owner.engram.decks.create({ name: "Room" });
  const { error } = await adminClient()
    .from("deck_members")
    .insert({ deck_id: deck.id, user_id: editor.account.id, role: "editor" });
  if (error) throw error;
  return { owner, editor, deckId: deck.id };
}

const ids = (people: DeckPresence[]) => people.map((person) => person.userId).sort();

describe("realtime: deck rooms", () => {
  test("presence lists both members once each and drops the one who leaves", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "editing", displayName: "Olga" });
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "studying", displayName: "Eddie" });
    // A second tab of the owner is the same person.
    const secondTab = owner.engram.realtime.joinDeck(deckId, { activity: "editing" });
    const updates: DeckPresence[][] = [];
    editorRoom.onPresence((people) => updates.push(people));

    const both = [owner.account.id, editor.account.id].sort();
    await eventually(() => expect(ids(ownerRoom.presence())).toEqual(both));
    await eventually(() => expect(ids(editorRoom.presence())).toEqual(both));
    expect(editorRoom.presence()).toEqual([
      expect.objectContaining({ userId: editor.account.id, displayName: "Eddie", activity: "studying" }),
      expect.objectContaining({ userId: owner.account.id, displayName: "Olga", activity: "editing" }),
    ]);
    expect(secondTab.presence()).toBe(ownerRoom.presence());

    await editorRoom.setActivity("viewing");
    await eventually(() =>
      expect(ownerRoom.presence()).toContainEqual(
        expect.objectContaining({ userId: editor.account.id, activity: "viewing" }),
      ),
    );

    await secondTab.leave();
    // The owner's other handle keeps them present.
    expect(ids(ownerRoom.presence())).toEqual(both);
    await ownerRoom.leave();
    await eventually(() => expect(ids(editorRoom.presence())).toEqual([editor.account.id]));
    expect(updates.length).toBeGreaterThan(1);
    await editorRoom.leave();
  });

  test("an editing signal reaches the other member and shows in their presence", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "editing", displayName: "Olga" });
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    const signals: EditingSignal[] = [];
    editorRoom.onEditing((signal) => signals.push(signal));
    await eventually(() => expect(editorRoom.presence()).toHaveLength(2));
    await eventually(() => expect(ownerRoom.presence()).toHaveLength(2));

    const noteId = crypto.randomUUID();
    await ownerRoom.startEditing(noteId);
    await eventually(() =>
      expect(signals).toEqual([{ noteId, userId: owner.account.id, displayName: "Olga", editing: true }]),
    );
    await eventually(() =>
      expect(editorRoom.presence()).toContainEqual(
        expect.objectContaining({ userId: owner.account.id, editingNoteId: noteId }),
      ),
    );

    await ownerRoom.stopEditing();
    await eventually(() => expect(signals.at(-1)).toMatchObject({ noteId, editing: false }));
    await Promise.all([ownerRoom.leave(), editorRoom.leave()]);
  });

  test("the field being edited shows in presence, only its last position is sent, and it clears with the editor", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "viewing", displayName: "Olga" });
    // The editor's own handle on the same room leaves the screen's activity as it was.
    const editorHandle = owner.engram.realtime.joinDeck(deckId, {});
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    await eventually(() => expect(editorRoom.presence()).toHaveLength(2));
    const seen: (string | null)[] = [];
    editorRoom.onPresence((people) => {
      const olga = people.find((person) => person.userId === owner.account.id);
      if (olga?.editingField) seen.push(olga.editingField);
    });

    const noteId = crypto.randomUUID();
    editorHandle.focusField("Front"); // not editing yet: nothing to say
    await editorHandle.startEditing(noteId);
    editorHandle.focusField("Front");
    editorHandle.focusField(null);
    editorHandle.focusField("Back Extra");
    await eventually(() =>
      expect(editorRoom.presence()).toContainEqual(
        expect.objectContaining({
          userId: owner.account.id,
          editingNoteId: noteId,
          editingField: "Back Extra",
          activity: "viewing",
        }),
      ),
    );
    expect(seen).toEqual(["Back Extra"]);
    expect(() => editorHandle.focusField("")).toThrow(expect.objectContaining({ code: "validation" }));

    await editorHandle.leave();
    await eventually(() =>
      expect(editorRoom.presence()).toContainEqual(
        expect.objectContaining({ userId: owner.account.id, editingNoteId: null, editingField: null }),
      ),
    );
    await Promise.all([ownerRoom.leave(), editorRoom.leave()]);
  });

  test("a non-member cannot join the deck's private channel and is told so", async () => {
    const { deckId, owner } = await sharedDeck();
    const stranger: SignedIn = await signedIn("stranger");
    const errors: EngramError[] = [];
    const room = stranger.engram.realtime.joinDeck(deckId, { activity: "viewing", onError: (e) => errors.push(e) });
    await eventually(() => expect(errors.map((e) => e.code)).toEqual(["permission-denied"]));
    expect(room.presence()).toEqual([]);

    // The members never see the stranger.
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    await eventually(() => expect(ids(ownerRoom.presence())).toEqual([owner.account.id]));
    await Promise.all([room.leave(), ownerRoom.leave()]);
  });

  test("a dropped connection rejoins the room with a resync and the user present again", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    let resyncs = 0;
    editorRoom.onResync(() => {
      resyncs += 1;
    });
    await eventually(() => expect(ownerRoom.presence()).toHaveLength(2));

    await editor.supabase.realtime.disconnect();
    await eventually(() => expect(ids(ownerRoom.presence())).toEqual([owner.account.id]));
    editor.supabase.realtime.connect();
    await eventually(() => expect(resyncs).toBe(1));
    await eventually(() => expect(ownerRoom.presence()).toHaveLength(2));
    await Promise.all([ownerRoom.leave(), editorRoom.leave()]);
  });

  test("leaving and joining again at once (as React StrictMode mounts) ends with the user present", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    const first = owner.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    const leaving = first.leave();
    const second = owner.engram.realtime.joinDeck(deckId, { activity: "studying" });
    await leaving;
    await eventually(() =>
      expect(editorRoom.presence()).toContainEqual(
        expect.objectContaining({ userId: owner.account.id, activity: "studying" }),
      ),
    );
    expect(owner.supabase.getChannels().map((channel) => channel.topic)).toEqual([`realtime:deck:${deckId}`]);
    await Promise.all([second.leave(), editorRoom.leave()]);
  });

  test("the room and the deck's content stream share one channel; leaving the room keeps the stream", async () => {
    const { owner, editor, deckId } = await sharedDeck();
    const changes: unknown[] = [];
    let ready = false;
    const stopChanges = editor.engram.realtime.onDeckContent(deckId, (event) => changes.push(event), {
      onReady: () => {
        ready = true;
      },
    });
    const editorRoom = editor.engram.realtime.joinDeck(deckId, { activity: "editing" });
    const ownerRoom = owner.engram.realtime.joinDeck(deckId, { activity: "viewing" });
    await eventually(() => expect(ready).toBe(true));
    await eventually(() => expect(ids(ownerRoom.presence())).toEqual([owner.account.id, editor.account.id].sort()));
    expect(editor.supabase.getChannels().map((channel) => channel.topic)).toEqual([`realtime:deck:${deckId}`]);

    await editorRoom.leave();
    // The channel stays for the stream, but the editor is no longer in the room.
    await eventually(() => expect(ids(ownerRoom.presence())).toEqual([owner.account.id]));
    const note = await owner.engram.notes.create(deckId, { kind: "basic", fields: { front: "Q", back: "A" } });
    // The set-up's own announcements (the deck, the membership) may still arrive after the join, as on
    // the platform, and a dropped socket brings a resync: only the note's own event is the stream's answer.
    const noteEvents = () => changes.filter((event) => (event as { table?: string }).table === "notes");
    await eventually(() => expect(noteEvents()).toEqual([{ table: "notes", type: "insert", ids: [note.id] }]));

    await stopChanges();
    expect(editor.supabase.getChannels()).toEqual([]);
    await ownerRoom.leave();
  });

  test("bad input is refused before joining", async () => {
    const { engram, supabase } = await signedIn();
    expect(() => engram.realtime.joinDeck("deck-1", { activity: "viewing" })).toThrow(
      expect.objectContaining({ code: "validation" }),
    );
    expect(() => engram.realtime.joinDeck(crypto.randomUUID(), { activity: "sleeping" as "viewing" })).toThrow(
      expect.objectContaining({ code: "validation", field: "activity" }),
    );
    expect(supabase.getChannels()).toEqual([]);
  });
});
