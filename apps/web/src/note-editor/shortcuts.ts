/**
 * The editor's keyboard shortcuts, declared once: the dialog's handler, the
 * field editors' key bindings and the shortcut help all read this table.
 * `keys` is ProseMirror's notation (Mod = Ctrl, or Cmd on a Mac).
 */
export const noteEditorShortcuts = {
  save: { keys: "Mod-Enter", label: "Save the note" },
  cancel: { keys: "Escape", label: "Close (asks before losing changes)" },
  bold: { keys: "Mod-b", label: "Bold" },
  italic: { keys: "Mod-i", label: "Italic" },
  underline: { keys: "Mod-u", label: "Underline" },
  link: { keys: "Mod-k", label: "Add or change a link" },
  cloze: { keys: "Mod-Shift-c", label: "Cloze deletion with a new number" },
  clozeSame: { keys: "Mod-Shift-Alt-c", label: "Cloze deletion with the same number" },
  html: { keys: "Mod-Shift-x", label: "Edit the field as HTML, or back as rich text" },
} as const;

export type NoteEditorShortcut = keyof typeof noteEditorShortcuts;

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** "Mod-Shift-c" as people read it: "Ctrl+Shift+C" (or "⌘+Shift+C" on a Mac). */
export function describeKeys(keys: string): string {
  return keys
    .split("-")
    .map((part) => {
      if (part === "Mod") return isMac ? "⌘" : "Ctrl";
      if (part === "Alt" && isMac) return "Option";
      return part.length === 1 ? part.toUpperCase() : part;
    })
    .join("+");
}

/** The aria-keyshortcuts value for a binding ("Control+Shift+C"). */
export function ariaKeys(keys: string): string {
  return keys
    .split("-")
    .map((part) => (part === "Mod" ? (isMac ? "Meta" : "Control") : part.length === 1 ? part.toUpperCase() : part))
    .join("+");
}

/** Whether a keydown is `keys` (with Mod, Shift and Alt exactly as written; the letter in either case). */
export function matchesKeys(
  keys: string,
  event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean },
): boolean {
  const parts = keys.split("-");
  const key = parts.pop() ?? "";
  const mod = isMac ? event.metaKey : event.ctrlKey;
  return (
    event.key.toLowerCase() === key.toLowerCase() &&
    mod === parts.includes("Mod") &&
    event.shiftKey === parts.includes("Shift") &&
    event.altKey === parts.includes("Alt")
  );
}

/** Whether a keydown is the dialog-level Save shortcut. */
export function isSaveKey(event: { key: string; ctrlKey: boolean; metaKey: boolean }): boolean {
  return event.key === "Enter" && (isMac ? event.metaKey : event.ctrlKey || event.metaKey);
}
