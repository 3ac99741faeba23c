/**
 * One note field: its label, toolbar, editor and what goes wrong with it. The
 * rich editor (TipTap) is a labelled multi-line textbox; images and sounds
 * come in through the toolbar's file picker, paste and drop. A field whose
 * HTML the rich editor would change (markup-roundtrip.ts) opens in the HTML
 * view instead, so no markup is ever lost by editing; either view can be
 * chosen with the toolbar's HTML button or its shortcut, as in Anki.
 */
import { hasContent, mediaTypes } from "@engram/core";
import { EditorContent, getSchema, useEditor } from "@tiptap/react";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { fieldExtensions, withoutPastedStyling } from "./field-extensions.js";
import { FieldToolbar } from "./field-toolbar.js";
import { HtmlView } from "./html-view-on-demand.js";
import { LinkForm } from "./link-form.js";
import { survivesRichEditor } from "./markup-roundtrip.js";
import { matchesKeys, noteEditorShortcuts } from "./shortcuts.js";
import { useMediaUpload } from "./use-media-upload.js";

export const cannotShowNotice = "This field has formatting the rich editor can't show; edit it as HTML.";

export interface RichFieldProps {
  deckId: string;
  /** The note field's name, used by the error summary to find it. */
  name: string;
  label: string;
  initialHtml: string;
  error?: string | undefined;
  cloze?: boolean;
  autoFocus?: boolean;
  /** Who else has their cursor in this field ("Ana is editing"), shown beside the label. */
  presence?: string | undefined;
  onChange: (html: string) => void;
}

/** An empty editor's `<p></p>` is stored as nothing, so empty fields are "" as the rules expect. */
function fieldHtml(html: string): string {
  return hasContent(html) ? html : "";
}

const filesOf = (data: DataTransfer | null) => [...(data?.files ?? [])];

/** What the buckets take, and SVG, which is stored as the PNG drawn of it (use-media-upload.ts). */
const acceptedFiles = [...mediaTypes, "image/svg+xml", ".svg"].join(",");

export function RichField({
  deckId,
  name,
  label,
  initialHtml,
  error,
  cloze = false,
  autoFocus,
  presence,
  onChange,
}: RichFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const htmlLabelId = `${id}-html-label`;
  const noticeId = `${id}-notice`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const fileInput = useRef<HTMLInputElement>(null);
  const [linking, setLinking] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // Paste and drop handlers are given to the editor once; they reach the latest upload function here.
  const insertFilesRef = useRef<(files: File[], at?: number) => void>(() => {});

  const extensions = useMemo(() => fieldExtensions({ deckId, onLinkShortcut: () => setLinking(true) }), [deckId]);
  // The field's HTML as it would be saved: as loaded until an edit, then the editor's or exactly what was typed.
  const currentHtml = useRef(initialHtml);
  // Decided on load: HTML the rich editor would rewrite opens as HTML, and is not given to that editor.
  const [htmlView, setHtmlView] = useState(() => !survivesRichEditor(initialHtml, getSchema(extensions)));
  const [notice, setNotice] = useState(htmlView);
  // Focus follows a switch of view; on load only when the field asked for it.
  const [focusHtml, setFocusHtml] = useState(Boolean(autoFocus));
  const attributes = useMemo(
    () => ({
      role: "textbox",
      "aria-multiline": "true",
      "aria-labelledby": labelId,
      "aria-describedby": [error ? errorId : "", statusId].filter(Boolean).join(" "),
      ...(error ? { "aria-invalid": "true" } : {}),
      "data-field": name,
      class: "field-editor-content",
      spellcheck: "true",
    }),
    [labelId, errorId, statusId, error, name],
  );
  const editorProps = useMemo(
    () => ({
      attributes,
      transformPastedHTML: withoutPastedStyling,
      handlePaste: (_view: unknown, event: ClipboardEvent) => {
        const files = filesOf(event.clipboardData);
        if (files.length === 0) return false;
        event.preventDefault();
        insertFilesRef.current(files);
        return true;
      },
      handleDrop: (
        view: { posAtCoords: (coords: { left: number; top: number }) => { pos: number } | null },
        event: DragEvent,
        _slice: unknown,
        moved: boolean,
      ) => {
        const files = filesOf(event.dataTransfer);
        if (moved || files.length === 0) return false;
        event.preventDefault();
        insertFilesRef.current(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
    }),
    [attributes],
  );

  const editor = useEditor({
    extensions,
    content: htmlView ? "" : initialHtml,
    autofocus: autoFocus && !htmlView ? "end" : false,
    editorProps,
    onUpdate: ({ editor: current }) => {
      currentHtml.current = fieldHtml(current.getHTML());
      onChangeRef.current(currentHtml.current);
    },
  });

  const toggleHtml = () => {
    if (!htmlView) {
      setNotice(false);
      setFocusHtml(true);
      setHtmlView(true);
      return;
    }
    const html = currentHtml.current;
    if (!survivesRichEditor(html, editor.schema)) {
      setNotice(true);
      return;
    }
    // Shown, not saved: the field keeps the typed HTML until the next edit.
    editor.commands.setContent(html, { emitUpdate: false });
    setNotice(false);
    setHtmlView(false);
    editor.commands.focus("end");
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!matchesKeys(noteEditorShortcuts.html.keys, event)) return;
    event.preventDefault();
    toggleHtml();
  };

  // Errors come and go after the editor exists: hand it the new aria attributes.
  useEffect(() => {
    if (!editor.isDestroyed) editor.setOptions({ editorProps });
  }, [editor, editorProps]);

  const upload = useMediaUpload(deckId, editor);
  insertFilesRef.current = (files, at) => void upload.insertFiles(files, at);

  return (
    <div className={`field rich-field${error ? " has-error" : ""}`}>
      <div className="field-label-row">
        <span id={labelId} className="field-label">
          {label}
        </span>
        {presence ? <span className="field-presence">{presence}</span> : null}
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the shortcut is caught here for both views; each view is its own textbox. */}
      <div className="field-editor" onKeyDown={onKeyDown}>
        <FieldToolbar
          editor={editor}
          label={label}
          cloze={cloze}
          onLink={() => setLinking(true)}
          onPickFile={() => fileInput.current?.click()}
          htmlView={htmlView}
          onToggleHtml={toggleHtml}
        />
        {linking && !htmlView && <LinkForm editor={editor} onDone={() => setLinking(false)} />}
        {htmlView ? (
          <>
            <span id={htmlLabelId} hidden>
              {label} (HTML)
            </span>
            <HtmlView
              initialText={currentHtml.current}
              labelledBy={htmlLabelId}
              describedBy={[notice ? noticeId : "", error ? errorId : ""].filter(Boolean).join(" ")}
              name={name}
              invalid={Boolean(error)}
              autoFocus={focusHtml}
              onChange={(text) => {
                currentHtml.current = text;
                onChangeRef.current(text);
              }}
            />
          </>
        ) : (
          <EditorContent editor={editor} />
        )}
      </div>
      <div role="status" className="field-notice-status">
        {notice && (
          <p id={noticeId} className="field-notice">
            {cannotShowNotice}
          </p>
        )}
      </div>
      <input
        ref={fileInput}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={`Image or sound for ${label}`}
        accept={acceptedFiles}
        multiple
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = "";
          void upload.insertFiles(files);
        }}
      />
      <div id={statusId} role="status" className="field-status">
        {upload.uploading.length > 0 && (
          <>
            <progress aria-label={`Uploading ${upload.uploading.join(", ")}`} />
            <span>Uploading {upload.uploading.join(", ")}…</span>
          </>
        )}
      </div>
      {upload.error && (
        <p className="field-error" role="alert">
          {upload.error}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
