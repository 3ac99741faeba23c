import { describe, expect, test } from "vitest";
import { deferred } from "../deferred.js";
import type { DeckPresence, DeckRoom } from "./deck-room.js";
import { pendingDeckRoom } from "./pending-deck-room.js";

/** A room that records what reaches it, and lets a test announce presence. */
function recordingRoom() {
  const calls: string[] = [];
  const presenceListeners = new Set<(people: DeckPresence[]) => void>();
  const someone: DeckPresence = {
    userId: "u1",
    displayName: "Olga",
    avatarPath: null,
    activity: "viewing",
    editingNoteId: null,
    editingField: null,
    since: "2026-11-29T00:00:00.000Z",
    connections: 1,
  };
  const room: DeckRoom = {
    deckId: "d1",
    presence: () => [someone],
    onPresence: (listener) => {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },
    onEditing: () => () => undefined,
    onResync: () => () => undefined,
    setActivity: async (activity) => void calls.push(`activity ${activity}`),
    startEditing: async (noteId) => void calls.push(`editing ${noteId}`),
    stopEditing: async () => void calls.push("stop editing"),
    focusField: (field) => void calls.push(`field ${field}`),
    leave: async () => void calls.push("leave"),
  };
  const announce = () => {
    for (const listener of presenceListeners) listener([someone]);
  };
  return { room, calls, announce };
}

describe("a deck room whose code is still loading", () => {
  test("reads as empty, then reaches the room with every call in order and only the last field", async () => {
    const { room, calls } = recordingRoom();
    const joining = deferred();
    const pending = pendingDeckRoom("d1", joining.promise, () => room);
    expect(pending.presence()).toEqual([]);
    const editing = pending.startEditing("n1");
    pending.focusField("Front");
    pending.focusField("Back");
    const activity = pending.setActivity("editing");
    expect(calls).toEqual([]);
    joining.resolve();
    await Promise.all([editing, activity]);
    expect(calls).toEqual(["editing n1", "field Back", "activity editing"]);
    expect(pending.presence()).toHaveLength(1);
    pending.focusField("Front");
    expect(calls.at(-1)).toBe("field Front");
  });

  test("a listener added before the room is there hears it, unless removed first", async () => {
    const { room, announce } = recordingRoom();
    const joining = deferred();
    const pending = pendingDeckRoom("d1", joining.promise, () => room);
    const heard: string[] = [];
    pending.onPresence(() => heard.push("kept"));
    const stop = pending.onPresence(() => heard.push("removed"));
    stop();
    joining.resolve();
    await joining.promise;
    announce();
    expect(heard).toEqual(["kept"]);
  });

  test("a join, its leave and a join again made before the code is there keep their order", async () => {
    const order: string[] = [];
    const loaded = deferred();
    const handle = (name: string) => () => {
      order.push(`join ${name}`);
      return { ...recordingRoom().room, leave: async () => void order.push(`leave ${name}`) };
    };
    const first = pendingDeckRoom("d1", loaded.promise, handle("first"));
    const leaving = first.leave();
    pendingDeckRoom("d1", loaded.promise, handle("second"));
    loaded.resolve();
    await leaving;
    expect(order).toEqual(["join first", "leave first", "join second"]);
  });

  test("a load that fails rejects the calls with its error; leaving the room it never joined succeeds", async () => {
    const joining = deferred();
    const pending = pendingDeckRoom("d1", joining.promise, () => {
      throw new Error("never joined");
    });
    const editing = pending.startEditing("n1");
    const leaving = pending.leave();
    joining.reject(new Error("offline"));
    await expect(editing).rejects.toThrow("offline");
    await expect(leaving).resolves.toBeUndefined();
    expect(pending.presence()).toEqual([]);
  });
});
