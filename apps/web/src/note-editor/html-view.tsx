/**
 * A field's HTML as text, in CodeMirror 6 with HTML highlighting: for markup
 * the rich editor cannot show, and for whoever wants the source. Loaded only
 * when a field first shows it (rich-field.tsx imports it lazily). What is
 * typed is handed on exactly; the card sanitiser decides what shows.
 */
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { HighlightStyle, LRLanguage, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { parser } from "@lezer/html";
import { useEffect, useRef } from "react";
import { noteEditorShortcuts } from "./shortcuts.js";

export interface HtmlViewProps {
  initialText: string;
  /** Ids of the elements naming and describing the text box. */
  labelledBy: string;
  describedBy: string;
  /** The note field's name, for the error summary. */
  name: string;
  invalid: boolean;
  autoFocus: boolean;
  onChange: (text: string) => void;
}

/**
 * HTML's grammar alone: a field's `<script>` or `<style>` is dropped by the card
 * sanitiser anyway, so their languages (which would triple the download) are left out.
 */
const fieldHtml = LRLanguage.define({ name: "html", parser });

/** Colours come from note-editor.css, which follows the app's light and dark themes. */
const highlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.angleBracket], class: "html-tag" },
  { tag: tags.attributeName, class: "html-attribute" },
  { tag: [tags.attributeValue, tags.string], class: "html-value" },
  { tag: tags.comment, class: "html-comment" },
  { tag: [tags.character, tags.processingInstruction, tags.documentMeta], class: "html-entity" },
  { tag: tags.invalid, class: "html-invalid" },
]);

/** The text box's name, description, error state and field name, as the rich editor has them. */
function contentAttributes(props: Pick<HtmlViewProps, "labelledBy" | "describedBy" | "name" | "invalid">) {
  return EditorView.contentAttributes.of({
    "aria-labelledby": props.labelledBy,
    "aria-describedby": props.describedBy,
    "data-field": props.name,
    ...(props.invalid ? { "aria-invalid": "true" } : {}),
  });
}

export default function HtmlView({
  initialText,
  labelledBy,
  describedBy,
  name,
  invalid,
  autoFocus,
  onChange,
}: HtmlViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const viewRef = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const described = { labelledBy, describedBy, name, invalid };
  const initial = useRef({ initialText, autoFocus, described });

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc: initial.current.initialText,
        extensions: [
          history(),
          // Tab stays with the page (moving to the next field), as in the rich editor. Saving belongs
          // to the dialog: the blank line CodeMirror binds to the same keys is swallowed.
          keymap.of([{ key: noteEditorShortcuts.save.keys, run: () => true }, ...defaultKeymap, ...historyKeymap]),
          attributes.current.of(contentAttributes(initial.current.described)),
          fieldHtml,
          syntaxHighlighting(highlight),
          EditorView.lineWrapping,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    if (initial.current.autoFocus) view.focus();
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  // Errors come and go after the editor exists.
  useEffect(() => {
    viewRef.current?.dispatch({
      effects: attributes.current.reconfigure(contentAttributes({ labelledBy, describedBy, name, invalid })),
    });
  }, [labelledBy, describedBy, name, invalid]);

  return <div ref={host} className="html-view" />;
}
