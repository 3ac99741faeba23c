/**
 * Who else has this note open and which field they are in (docs/product.md §7),
 * and telling them where the user's cursor is. The editor holds its own handle
 * on the deck's room, so it works wherever the editor opens.
 */
import type { DeckPresence, DeckRoom } from "@engram/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { useEngram } from "../session/engram-context.js";
import { useSession } from "../session/session-context.js";

export interface NotePresence {
  /** Field (stored name) → the names of the others whose cursor is in it. */
  editors: ReadonlyMap<string, string[]>;
  /** The field the user's cursor is in now, or null when it left the fields. */
  focusField(field: string | null): void;
}

const nobody: ReadonlyMap<string, string[]> = new Map();

export function useNotePresence(deckId: string, noteId: string | undefined): NotePresence {
  const engram = useEngram();
  const session = useSession();
  const userId = session.status === "signed-in" ? session.session.user.id : null;
  const roomRef = useRef<DeckRoom | null>(null);
  const [people, setPeople] = useState<DeckPresence[]>([]);

  useEffect(() => {
    if (!noteId) return;
    // No activity: the screen that opened the editor keeps saying what the user does.
    const room = engram.realtime.joinDeck(deckId, { onError: () => undefined });
    roomRef.current = room;
    void room.startEditing(noteId).catch(() => undefined);
    setPeople(room.presence());
    room.onPresence(setPeople);
    return () => {
      roomRef.current = null;
      void room.leave();
    };
  }, [engram, deckId, noteId]);

  const focusField = useCallback((field: string | null) => {
    try {
      roomRef.current?.focusField(field);
    } catch {
      // A name the room refuses is simply not announced.
    }
  }, []);

  const editors = new Map<string, string[]>();
  for (const person of people) {
    if (person.userId === userId || person.editingNoteId !== noteId || !person.editingField) continue;
    const names = editors.get(person.editingField) ?? [];
    editors.set(person.editingField, [...names, person.displayName ?? "Someone"]);
  }
  return { editors: editors.size > 0 ? editors : nobody, focusField };
}
