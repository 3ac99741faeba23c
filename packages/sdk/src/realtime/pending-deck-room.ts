/**
 * A deck room usable at once while its code loads (deck-room.ts loads with the
 * first `joinDeck`, so screens that never join one do not download it): reads
 * answer as an empty room, and the join, listeners and calls reach the room
 * once the code is there, in the order they were made (a leave and a join
 * again, as React's StrictMode mounts, stay in that order), and a load that
 * fails rejects the calls but `leave`.
 */
import type { DeckRoom } from "./deck-room.js";

type Subscribe<Listener> = (listener: Listener) => () => void;

export function pendingDeckRoom(deckId: string, loaded: Promise<unknown>, join: () => DeckRoom): DeckRoom {
  let room: DeckRoom | undefined;
  // Every step waits on the same load, so they run in the order they were made.
  const then = <T>(step: (joined: DeckRoom) => T | PromiseLike<T>): Promise<T> =>
    loaded.then(() => step(room as DeckRoom));
  loaded.then(
    () => {
      room = join();
    },
    () => undefined,
  );
  const ignoreFailure = (promise: Promise<unknown>) => promise.catch(() => undefined);
  // A listener added before the room is there subscribes once it is, unless removed first.
  const subscribe =
    <Listener>(pick: (joined: DeckRoom) => Subscribe<Listener>): Subscribe<Listener> =>
    (listener) => {
      if (room) return pick(room)(listener);
      let stop: (() => void) | undefined;
      let removed = false;
      void ignoreFailure(
        then((joined) => {
          if (!removed) stop = pick(joined)(listener);
        }),
      );
      return () => {
        removed = true;
        stop?.();
      };
    };
  // Fields reported before the room was there: only the latest reaches it.
  let fieldsReported = 0;
  return {
    deckId,
    presence: () => room?.presence() ?? [],
    onPresence: subscribe((joined) => joined.onPresence.bind(joined)),
    onEditing: subscribe((joined) => joined.onEditing.bind(joined)),
    onResync: subscribe((joined) => joined.onResync.bind(joined)),
    setActivity: (activity) => (room ? room.setActivity(activity) : then((joined) => joined.setActivity(activity))),
    startEditing: (noteId) => (room ? room.startEditing(noteId) : then((joined) => joined.startEditing(noteId))),
    stopEditing: () => (room ? room.stopEditing() : then((joined) => joined.stopEditing())),
    focusField: (field) => {
      if (room) return room.focusField(field);
      const reported = ++fieldsReported;
      void ignoreFailure(
        then((joined) => {
          if (reported === fieldsReported) joined.focusField(field);
        }),
      );
    },
    // A room whose code never loaded was never joined: there is nothing to leave.
    leave: () => (room ? room.leave() : then((joined) => joined.leave()).catch(() => undefined)),
  };
}
