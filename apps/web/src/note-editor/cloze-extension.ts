/**
 * Anki's cloze shortcuts in the editor: the selection (or an empty deletion at
 * the cursor) is wrapped in `{{cN::…}}` as plain text, with N one above the
 * highest number in the field, or equal to it for "same number".
 */
import { clozeOrdinals } from "@engram/core";
import { TextSelection } from "@tiptap/pm/state";
import { type Editor, Extension } from "@tiptap/react";
import { noteEditorShortcuts } from "./shortcuts.js";

/** The number the next deletion gets: one more than the highest, or the highest itself (at least 1). */
export function nextClozeNumber(text: string, sameNumber: boolean): number {
  const highest = Math.max(0, ...clozeOrdinals(text));
  return sameNumber ? Math.max(1, highest) : highest + 1;
}

/** Wraps the selection; returns false (nothing done) when the editor is read-only. */
export function wrapInCloze(editor: Editor, sameNumber: boolean): boolean {
  if (!editor.isEditable) return false;
  // The browser reports selection changes a moment late (selectionchange); a fast Shift+Arrow then
  // this shortcut must wrap what is selected on screen, so read the DOM's selection first.
  (editor.view as unknown as { domObserver?: { flush?: () => void } }).domObserver?.flush?.();
  const number = nextClozeNumber(editor.state.doc.textContent, sameNumber);
  const opening = `{{c${number}::`;
  const { from, to, empty } = editor.state.selection;
  return editor
    .chain()
    .focus()
    .command(({ tr }) => {
      tr.insertText("}}", to);
      tr.insertText(opening, from);
      // An empty deletion leaves the cursor inside it, ready for the answer; a wrapped one after it.
      const cursor = empty ? from + opening.length : to + opening.length + 2;
      tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(cursor, tr.doc.content.size))));
      return true;
    })
    .run();
}

export const ClozeShortcuts = Extension.create({
  name: "clozeShortcuts",
  priority: 1000,
  addKeyboardShortcuts() {
    return {
      [noteEditorShortcuts.cloze.keys]: () => wrapInCloze(this.editor, false),
      [noteEditorShortcuts.clozeSame.keys]: () => wrapInCloze(this.editor, true),
    };
  },
});
