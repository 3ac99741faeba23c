/**
 * The study screen's keyboard shortcuts, declared once: the key handler and
 * the `?` help dialog both read this table (docs/conventions.md §12). Anki's keys.
 */
import { Rating } from "@engram/core";

export type StudyAction =
  | "reveal"
  | "again"
  | "hard"
  | "good"
  | "easy"
  | "undo"
  | "edit"
  | "info"
  | "replay"
  | "suspend"
  | "bury-card"
  | "bury-note"
  | "mark"
  | "flag"
  | "unflag"
  | "help";

export interface Shortcut {
  action: StudyAction;
  /** KeyboardEvent.key values that trigger it. */
  keys: readonly string[];
  /** Pressed with Ctrl, as Anki's flags are; other shortcuts ignore a key pressed with Ctrl. */
  ctrl?: boolean;
  /** How the help dialog writes the keys. */
  label: string;
  description: string;
}

export const shortcuts: readonly Shortcut[] = [
  { action: "reveal", keys: [" ", "Enter"], label: "Space or Enter", description: "Show the answer" },
  { action: "again", keys: ["1"], label: "1", description: "Again: forgotten, see it again soon" },
  { action: "hard", keys: ["2"], label: "2", description: "Hard: remembered with difficulty" },
  { action: "good", keys: ["3"], label: "3", description: "Good: remembered" },
  { action: "easy", keys: ["4"], label: "4", description: "Easy: remembered at once" },
  { action: "undo", keys: ["u", "U"], label: "U", description: "Undo the last answer or card action" },
  { action: "edit", keys: ["e", "E"], label: "E", description: "Edit the card's note" },
  { action: "replay", keys: ["r", "R"], label: "R", description: "Replay the card's audio" },
  { action: "info", keys: ["i", "I"], label: "I", description: "Card info: the card's schedule and your answers" },
  { action: "suspend", keys: ["@"], label: "@", description: "Suspend the card" },
  { action: "bury-card", keys: ["-"], label: "-", description: "Bury the card until tomorrow" },
  { action: "bury-note", keys: ["="], label: "=", description: "Bury the note's cards until tomorrow" },
  { action: "mark", keys: ["*"], label: "*", description: "Mark or unmark the note (your own tag marked)" },
  {
    action: "flag",
    keys: ["1", "2", "3", "4", "5", "6", "7"],
    ctrl: true,
    label: "Ctrl+1 to Ctrl+7",
    description:
      "Flag the card: 1 red, 2 orange, 3 green, 4 blue, 5 pink, 6 turquoise, 7 purple; the same again clears it",
  },
  { action: "unflag", keys: ["0"], ctrl: true, label: "Ctrl+0", description: "Clear the card's flag" },
  { action: "help", keys: ["?"], label: "?", description: "Show these shortcuts" },
];

export const ratingOf = {
  again: Rating.again,
  hard: Rating.hard,
  good: Rating.good,
  easy: Rating.easy,
} as const;

export type RatingAction = keyof typeof ratingOf;

export function isRatingAction(action: StudyAction): action is RatingAction {
  return action in ratingOf;
}

/**
 * The action a key press means, if any. Presses with Alt or Meta are left to
 * the browser, and with Ctrl all but the flags (Anki's Ctrl+1 … Ctrl+7).
 */
export function shortcutFor(event: KeyboardEvent): StudyAction | null {
  if (event.altKey || event.metaKey) return null;
  return (
    shortcuts.find((shortcut) => (shortcut.ctrl ?? false) === event.ctrlKey && shortcut.keys.includes(event.key))
      ?.action ?? null
  );
}

/**
 * Space and Enter on a focused button or link press it; the key handler must
 * not act twice. A card's own (a link, a hint's summary) is inside its shadow
 * root, where only the event's path reaches.
 */
export function isActivationOfFocused(event: KeyboardEvent): boolean {
  if (event.key !== " " && event.key !== "Enter") return false;
  const target = event.composedPath()[0] ?? event.target;
  return target instanceof HTMLElement && target.closest("button, a, summary, [role='button']") !== null;
}
