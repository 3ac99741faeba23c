/** What single-key shortcuts (Anki's 1–4, `a`, `/`) must leave alone. */

/** Typing in a field, or working in a dialog: the key belongs there, not to the screen's shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (document.querySelector("dialog[open], [role='dialog']")) return true;
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit"].includes(target.type);
  return target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName);
}
