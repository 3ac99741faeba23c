/**
 * The deck screen's keyboard shortcuts, declared once: the key handlers and
 * the `?` help dialog both read this table (docs/conventions.md §12).
 */
export type ShortcutAction = "search" | "add" | "next" | "previous" | "open" | "select" | "help";

export interface Shortcut {
  action: ShortcutAction;
  /** KeyboardEvent.key values that trigger it. */
  keys: readonly string[];
  /** How the help dialog writes the keys. */
  label: string;
  description: string;
  /** Only for people who may change the deck. */
  editorsOnly?: boolean;
}

export const shortcuts: readonly Shortcut[] = [
  { action: "search", keys: ["/"], label: "/", description: "Search the notes" },
  { action: "add", keys: ["a"], label: "A", description: "Add a note", editorsOnly: true },
  { action: "next", keys: ["ArrowDown", "j"], label: "↓ or J", description: "Next note" },
  { action: "previous", keys: ["ArrowUp", "k"], label: "↑ or K", description: "Previous note" },
  { action: "open", keys: ["Enter"], label: "Enter", description: "Show or hide the note's cards" },
  { action: "select", keys: ["x"], label: "X", description: "Select or unselect the note", editorsOnly: true },
  { action: "help", keys: ["?"], label: "?", description: "Show these shortcuts" },
];

/** The action a key press means, if any; presses with Ctrl, Alt or Meta are left to the browser. */
export function shortcutFor(event: KeyboardEvent | React.KeyboardEvent, canEdit: boolean): ShortcutAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const found = shortcuts.find((shortcut) => shortcut.keys.includes(event.key) && (canEdit || !shortcut.editorsOnly));
  return found?.action ?? null;
}
