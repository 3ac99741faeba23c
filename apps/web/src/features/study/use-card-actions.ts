/**
 * Acting on the card being studied, as Anki's study screen does
 * (docs/product.md §2): suspend it, bury it or its note's cards until
 * tomorrow, flag it, mark its note. Suspended and buried cards leave the
 * session at once. Answers and actions share one undo history, newest first:
 * undoing an action puts back exactly what was there before and shows the
 * card again. Cards suspended or buried on another device are said here too.
 */
import type { CardFlag, LeftElsewhere, ReviewSession, StudyCard } from "@engram/sdk";
import { markedTag } from "@engram/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";

export const flagNames = ["", "Red", "Orange", "Green", "Blue", "Pink", "Turquoise", "Purple"] as const;

type Step = { kind: "answer" } | { kind: "action"; undo: () => Promise<string> };

/** What the last action did, said under the card with a way to take it back. */
export type ActionNotice = { id: number; text: string; undoable: boolean };

/** "A card was suspended on another device", "2 cards were buried on another device". */
export function leftElsewhereText(cards: readonly LeftElsewhere[]): string {
  const reasons = new Set(cards.map((left) => left.reason));
  const what = reasons.size > 1 ? "suspended or buried" : (cards[0]?.reason ?? "suspended");
  return cards.length === 1
    ? `A card was ${what} on another device`
    : `${cards.length} cards were ${what} on another device`;
}

const versionsOf = (rows: readonly { card_id: string; version: number }[]) =>
  new Map(rows.map((row) => [row.card_id, row.version]));

export function useCardActions(session: ReviewSession, current: StudyCard | null) {
  const queries = useEngramQueries();
  const mutations = useEngramMutations();
  const queryClient = useQueryClient();
  const suspend = useMutation(mutations.cards.setSuspended());
  const bury = useMutation(mutations.cards.setBuried());
  const buryNotes = useMutation(mutations.cards.setBuriedForNotes());
  const setFlag = useMutation(mutations.cards.setFlag());
  const setMarked = useMutation(mutations.personalNotes.setMarked());

  const noteId = current?.note.id ?? "";
  const schedules = useQuery({ ...queries.cards.forNote(noteId), enabled: current !== null });
  const personal = useQuery({ ...queries.personalNotes.detail(noteId), enabled: current !== null });
  // What a flag or mark being saved will be, shown before the server's copy is read back.
  const [saving, setSaving] = useState<{ cardId: string; flag?: CardFlag; marked?: boolean } | null>(null);
  const mine = saving !== null && saving.cardId === current?.card_id ? saving : null;
  const flag =
    mine?.flag ?? ((schedules.data?.find((card) => card.id === current?.card_id)?.schedule?.flag ?? 0) as CardFlag);
  const marked = mine?.marked ?? personal.data?.tags.includes(markedTag) ?? false;

  const history = useRef<Step[]>([]);
  const [steps, setSteps] = useState(0);
  const [notice, setNotice] = useState<ActionNotice | null>(null);
  const say = useCallback((text: string, undoable: boolean) => {
    setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, text, undoable }));
  }, []);
  useEffect(
    () =>
      session.subscribe((event) => {
        if (event.type === "left-elsewhere") say(leftElsewhereText(event.cards), false);
      }),
    [session, say],
  );
  const push = (step: Step) => {
    history.current.push(step);
    setSteps(history.current.length);
  };

  /**
   * Runs an action. It joins the undo history at once, so U pressed before the
   * server answered still takes it back (after it lands); when the server
   * refuses it, it leaves the history and is rolled back here.
   */
  const perform = (text: string, run: () => Promise<() => Promise<string>>, rollback?: () => void) => {
    const done = run();
    const step: Step = { kind: "action", undo: async () => (await done)() };
    push(step);
    done.then(
      () => say(text, true),
      (error: unknown) => {
        history.current = history.current.filter((other) => other !== step);
        setSteps(history.current.length);
        rollback?.();
        say(errorMessage(error), false);
      },
    );
  };

  const suspendCard = (card: StudyCard) => {
    const removed = session.remove([card.card_id]);
    perform(
      "Card suspended",
      async () => {
        await suspend.mutateAsync({ cardIds: [card.card_id], suspended: true });
        return async () => {
          await suspend.mutateAsync({ cardIds: [card.card_id], suspended: false });
          session.restore(removed);
          return "Card unsuspended";
        };
      },
      () => session.restore(removed),
    );
  };

  const buryCard = (card: StudyCard) => {
    const removed = session.remove([card.card_id]);
    perform(
      "Card buried until tomorrow",
      async () => {
        await bury.mutateAsync({ cardIds: [card.card_id], buried: true });
        return async () => {
          const rows = await bury.mutateAsync({ cardIds: [card.card_id], buried: false });
          session.restore(removed, versionsOf(rows));
          return "Card unburied";
        };
      },
      () => session.restore(removed),
    );
  };

  const buryNote = (card: StudyCard) => {
    const noteOf = card.note.id;
    // Out before the bury is sent, so its own announcement cannot take them out as done elsewhere.
    const removed = session.removeNotes([noteOf]);
    perform(
      "Note's cards buried until tomorrow",
      async () => {
        // Siblings already buried before stay buried when this is undone.
        const before = await queryClient.fetchQuery(queries.cards.forNote(noteOf));
        const now = Date.now();
        const wasFree = before
          .filter((c) => !c.schedule?.buried_until || Date.parse(c.schedule.buried_until) <= now)
          .map((c) => c.id);
        await buryNotes.mutateAsync({ noteIds: [noteOf], buried: true });
        return async () => {
          const back = wasFree.length > 0 ? await bury.mutateAsync({ cardIds: wasFree, buried: false }) : [];
          session.restore(
            removed.filter((c) => wasFree.includes(c.card_id)),
            versionsOf(back),
          );
          return "Note's cards unburied";
        };
      },
      () => session.restore(removed),
    );
  };

  const flagCard = (card: StudyCard, wanted: CardFlag) => {
    const previous = flag;
    const next: CardFlag = wanted === previous ? 0 : wanted;
    perform(next === 0 ? "Flag cleared" : `${flagNames[next]} flag set`, async () => {
      setSaving({ cardId: card.card_id, flag: next });
      await setFlag.mutateAsync({ cardIds: [card.card_id], flag: next }).finally(() => setSaving(null));
      return async () => {
        setSaving({ cardId: card.card_id, flag: previous });
        await setFlag.mutateAsync({ cardIds: [card.card_id], flag: previous }).finally(() => setSaving(null));
        return previous === 0 ? "Flag cleared" : `${flagNames[previous]} flag back`;
      };
    });
  };

  const markNote = (card: StudyCard) => {
    const previous = marked;
    perform(previous ? "Note unmarked" : "Note marked", async () => {
      setSaving({ cardId: card.card_id, marked: !previous });
      await setMarked
        .mutateAsync({ deckId: card.deck_id, noteId: card.note.id, marked: !previous })
        .finally(() => setSaving(null));
      return async () => {
        setSaving({ cardId: card.card_id, marked: previous });
        await setMarked
          .mutateAsync({ deckId: card.deck_id, noteId: card.note.id, marked: previous })
          .finally(() => setSaving(null));
        return previous ? "Note marked again" : "Note unmarked";
      };
    });
  };

  /** An answer joins the undo history, so U takes back whichever came last. */
  const answered = useCallback(() => {
    history.current.push({ kind: "answer" });
    setSteps(history.current.length);
    setNotice(null);
  }, []);

  /**
   * Takes back the newest answer or action. Returns "answer" when the caller
   * undoes an answer (through the session), "action" when an action was undone
   * here, null when there is nothing to undo.
   */
  const undo = (): "answer" | "action" | null => {
    const step = history.current.pop();
    setSteps(history.current.length);
    if (!step) return session.canUndo ? "answer" : null;
    if (step.kind === "answer") return "answer";
    step.undo().then(
      (text) => say(text, false),
      (error: unknown) => say(errorMessage(error), false),
    );
    return "action";
  };

  const undoFromNotice = () => {
    if (history.current.at(-1)?.kind === "action") undo();
  };

  return {
    flag,
    marked,
    notice,
    canUndo: steps > 0 || session.canUndo,
    busy: suspend.isPending || bury.isPending || buryNotes.isPending || setFlag.isPending || setMarked.isPending,
    suspendCard,
    buryCard,
    buryNote,
    flagCard,
    markNote,
    answered,
    undo,
    undoFromNotice,
  };
}
