/**
 * The deck's presence room (docs/product.md §7): who else is viewing, and which note
 * each of them has open in the editor. Joined while the screen is open.
 */
import type { DeckPresence, DeckRoom } from "@engram/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { useEngram } from "../../session/engram-context.js";
import { useSession } from "../../session/session-context.js";

export interface DeckRoomState {
  /** The other people here, one entry each, the user left out. */
  others: DeckPresence[];
  /** Note id → the name of someone else editing it. */
  editing: ReadonlyMap<string, string>;
  startEditing(noteId: string): void;
  stopEditing(): void;
}

export function useDeckRoom(
  deckId: string,
  enabled: boolean,
  me: { displayName?: string | undefined; avatarPath?: string | undefined },
): DeckRoomState {
  const engram = useEngram();
  const session = useSession();
  const userId = session.status === "signed-in" ? session.session.user.id : null;
  const roomRef = useRef<DeckRoom | null>(null);
  const [people, setPeople] = useState<DeckPresence[]>([]);
  const { displayName, avatarPath } = me;

  useEffect(() => {
    if (!enabled) return;
    const room = engram.realtime.joinDeck(deckId, {
      activity: "viewing",
      ...(displayName ? { displayName } : {}),
      ...(avatarPath ? { avatarPath } : {}),
      // Presence is a nicety: the screen works the same without it.
      onError: () => undefined,
    });
    roomRef.current = room;
    setPeople(room.presence());
    room.onPresence(setPeople);
    return () => {
      roomRef.current = null;
      setPeople([]);
      void room.leave();
    };
  }, [engram, deckId, enabled, displayName, avatarPath]);

  const others = people.filter((person) => person.userId !== userId);
  const editing = new Map<string, string>();
  for (const person of others) {
    if (person.editingNoteId) editing.set(person.editingNoteId, person.displayName ?? "Someone");
  }

  const startEditing = useCallback((noteId: string) => {
    void roomRef.current?.startEditing(noteId).catch(() => undefined);
  }, []);
  const stopEditing = useCallback(() => {
    void roomRef.current?.stopEditing().catch(() => undefined);
  }, []);

  return { others, editing, startEditing, stopEditing };
}
