/**
 * The study screen's session: the card, Show answer, the four answer buttons
 * with their intervals, undo, edit in place, replay, the card actions
 * (suspend, bury, flag, mark), card info, and the states around them (waiting for
 * learning cards, the summary, nothing due).
 */
import type { Rating } from "@engram/core";
import type { CardFlag, ReviewSession, StudyCard, StudyNote } from "@engram/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { onDemand } from "../../lib/preloadable.js";
import { useEngram } from "../../session/engram-context.js";
import { CardView, queryCard } from "../../ui/card-view/card-view.js";
import { findAnswerBox } from "../../ui/card-view/type-answer.js";
import { ActionNotice } from "./action-notice.js";
import { AnswerButtons, RevealButton } from "./answer-buttons.js";
import { AnsweredElsewhereNotices } from "./answered-elsewhere.js";
import { CardActionsMenu } from "./card-actions-menu.js";
import { CardMarks } from "./card-marks.js";
import { LeechNotice } from "./leech-notice.js";
import { MyNotes } from "./my-notes.js";
import { NothingDue } from "./nothing-due.js";
import { SessionCounts } from "./session-counts.js";
import { SessionSummary } from "./session-summary.js";
import { isRatingAction, ratingOf, type StudyAction, shortcuts } from "./shortcuts.js";
import { SyncStatus } from "./sync-status.js";
import { useCardActions } from "./use-card-actions.js";
import { useStudyKeys } from "./use-study-keys.js";
import { useSessionEvents, useSessionState, useTally } from "./use-study-session.js";
import { WaitingForLearning } from "./waiting.js";

const NoteEditorDialog = onDemand(() =>
  import("../../note-editor/note-editor-dialog.js").then((m) => m.NoteEditorDialog),
);
const CardInfoDialog = onDemand(() => import("../../card-info/card-info-dialog.js").then((m) => m.CardInfoDialog));
const ShortcutsDialog = onDemand(() => import("../../ui/shortcuts-dialog.js").then((m) => m.ShortcutsDialog));

type Props = {
  session: ReviewSession;
  cards: ReadonlyMap<string, StudyCard>;
  fromDevice: boolean;
  deckId: string | undefined;
};

export function StudySession({ session, cards, fromDevice, deckId }: Props) {
  const engram = useEngram();
  const state = useSessionState(session);
  const events = useSessionEvents(session, cards);
  const tally = useTally();
  const [revealedAt, setRevealedAt] = useState<Date | null>(null);
  const [dialog, setDialog] = useState<"help" | "edit" | "info" | null>(null);
  const [editError, setEditError] = useState(false);
  const cardArea = useRef<HTMLDivElement>(null);
  const current = state.current;
  const revealed = current !== null && revealedAt === current.shownAt;
  // What was typed into a type-in card's box, for the card shown at `at` only.
  const [typing, setTyping] = useState<{ at: Date | null; text: string }>({ at: null, text: "" });
  const typed = current !== null && typing.at === current.shownAt ? typing.text : "";
  const actions = useCardActions(session, current?.card ?? null);

  const rate = useCallback(
    (rating: Rating) => {
      events.clearLeech();
      session.answer(rating);
      tally.add(rating);
      actions.answered();
    },
    [session, tally.add, events.clearLeech, actions.answered],
  );

  // Answers and card actions share one history: the newest is taken back first.
  const undo = () => {
    events.clearLeech();
    if (actions.undo() === "answer" && session.undo()) tally.undo();
  };

  const replay = useCallback(() => {
    const side = queryCard(cardArea.current, revealed ? ".card-view-back" : ".card-view-front");
    const audio =
      side?.querySelector<HTMLAudioElement>("audio[src]") ??
      queryCard<HTMLAudioElement>(cardArea.current, "audio[src]");
    if (!audio) return false;
    audio.currentTime = 0;
    void audio.play().catch(() => {});
    return true;
  }, [revealed]);

  // The dialog gives the focus back to what had it when it opened: the card, whether opened by key or from the menu.
  const openInfo = () => {
    cardArea.current?.focus({ preventScroll: true });
    setDialog("info");
  };

  const act = (action: StudyAction, key: string): boolean => {
    if (action === "help") setDialog("help");
    else if (action === "undo") {
      if (!actions.canUndo) return false;
      undo();
    } else if (!current) return false;
    else if (action === "suspend") actions.suspendCard(current.card);
    else if (action === "bury-card") actions.buryCard(current.card);
    else if (action === "bury-note") actions.buryNote(current.card);
    else if (action === "mark") actions.markNote(current.card);
    else if (action === "flag") actions.flagCard(current.card, Number(key) as CardFlag);
    else if (action === "unflag") actions.flagCard(current.card, 0);
    else if (action === "reveal") {
      if (revealed) return false;
      setRevealedAt(current.shownAt);
    } else if (isRatingAction(action)) {
      if (!revealed) return false;
      rate(ratingOf[action]);
    } else if (action === "edit") setDialog("edit");
    else if (action === "info") openInfo();
    else if (action === "replay") return replay();
    return true;
  };
  useStudyKeys(act);

  // The control for the next step has the focus, so Space and Enter keep working for screen-reader users too.
  const shownAt = current?.shownAt;
  useEffect(() => {
    if (!shownAt || dialog) return;
    const active = document.activeElement;
    if (active && active !== document.body && !cardArea.current?.parentElement?.contains(active)) return;
    // On a type-in card's front the answer box is the next step.
    const box = revealed ? null : findAnswerBox(cardArea.current);
    if (box) {
      box.focus({ preventScroll: true });
      return;
    }
    const next = document.querySelector<HTMLButtonElement>(revealed ? ".answer-button.good" : ".reveal-button");
    next?.focus({ preventScroll: true });
  }, [shownAt, revealed, dialog]);

  const noteSaved = async (noteId: string) => {
    try {
      const note = await engram.notes.get(noteId);
      // notes.fields is jsonb; the notes_fields_shape constraint makes it match the kind.
      session.updateNote({ id: note.id, kind: note.kind, fields: note.fields, tags: note.tags } as StudyNote);
      setEditError(false);
    } catch {
      setEditError(true);
    }
  };

  return (
    <div className="study-session">
      <div className="study-status">
        <SessionCounts counts={state.counts} currentQueue={current?.card.queue} />
        <SyncStatus state={state} session={session} fromDevice={fromDevice} />
      </div>
      <AnsweredElsewhereNotices notices={events.answeredElsewhere} onDismiss={events.dismiss} />
      <LeechNotice leech={events.leech} />
      {editError && (
        <p className="notice" role="alert">
          The note was saved, but its new text could not be loaded here. It shows next time.
        </p>
      )}
      {current ? (
        <>
          <section
            className="study-card"
            aria-label={revealed ? "Card, answer shown" : "Card"}
            ref={cardArea}
            tabIndex={-1}
          >
            <CardMarks flag={actions.flag} marked={actions.marked} />
            <CardView
              deckId={current.card.deck_id}
              cardId={current.card.card_id}
              note={current.card.note}
              ordinal={current.card.ordinal}
              revealed={revealed}
              autoplay
              css={current.card.note.kind === "custom" ? current.card.note.noteType.css : undefined}
              typeAnswer={{
                typed,
                onType: (text) => setTyping({ at: current.shownAt, text }),
                onSubmit: () => setRevealedAt(current.shownAt),
              }}
            />
          </section>
          <MyNotes noteId={current.card.note.id} revealed={revealed} />
          <div className="study-actions">
            {revealed ? (
              <AnswerButtons intervals={current.intervals} onRate={rate} />
            ) : (
              <RevealButton onReveal={() => setRevealedAt(current.shownAt)} />
            )}
          </div>
        </>
      ) : state.nextAt ? (
        <WaitingForLearning nextAt={state.nextAt} learning={state.counts.learning} />
      ) : tally.ratings.length > 0 ? (
        <SessionSummary ratings={tally.ratings} startedAt={tally.startedAt} deckId={deckId} />
      ) : (
        <NothingDue deckId={deckId} />
      )}
      <ActionNotice notice={actions.notice} onUndo={actions.undoFromNotice} />
      <div className="study-tools">
        {actions.canUndo && (
          <button type="button" className="button secondary small" onClick={undo}>
            Undo <kbd>U</kbd>
          </button>
        )}
        {current && (
          <button type="button" className="button secondary small" onClick={() => setDialog("edit")}>
            Edit <kbd>E</kbd>
          </button>
        )}
        {current && (
          <CardActionsMenu
            flag={actions.flag}
            marked={actions.marked}
            onSuspend={() => actions.suspendCard(current.card)}
            onBuryCard={() => actions.buryCard(current.card)}
            onBuryNote={() => actions.buryNote(current.card)}
            onFlag={(flag) => actions.flagCard(current.card, flag)}
            onMark={() => actions.markNote(current.card)}
            onInfo={openInfo}
          />
        )}
        {/* Touch screens have no keys: no shortcuts to list (study.css hides it there). */}
        <button type="button" className="button secondary small shortcuts-button" onClick={() => setDialog("help")}>
          Shortcuts <kbd>?</kbd>
        </button>
      </div>
      {dialog === "help" && (
        <ShortcutsDialog
          shortcuts={shortcuts}
          caption="Keys and what they do while studying"
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "info" && current && <CardInfoDialog cardId={current.card.card_id} onClose={() => setDialog(null)} />}
      {dialog === "edit" && current && (
        <NoteEditorDialog
          deckId={current.card.deck_id}
          noteId={current.card.note.id}
          onClose={() => setDialog(null)}
          onSaved={(noteId) => void noteSaved(noteId)}
        />
      )}
    </div>
  );
}
