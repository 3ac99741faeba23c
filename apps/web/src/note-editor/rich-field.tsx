/**
 * One note field: its label, toolbar, TipTap editor and what goes wrong with
 * it. The editor is a labelled multi-line textbox; images and sounds come in
 * through the toolbar's file picker, paste and drop.
 */
import { hasContent, mediaTypes } from "@engram/core";
import { EditorContent, useEditor } from "@tiptap/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { fieldExtensions } from "./field-extensions.js";
import { FieldToolbar } from "./field-toolbar.js";
import { LinkForm } from "./link-form.js";
import { useMediaUpload } from "./use-media-upload.js";

export interface RichFieldProps {
  deckId: string;
  /** The note field's name, used by the error summary to find it. */
  name: string;
  label: string;
  initialHtml: string;
  error?: string | undefined;
  cloze?: boolean;
  autoFocus?: boolean;
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
  onChange,
}: RichFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const fileInput = useRef<HTMLInputElement>(null);
  const [linking, setLinking] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // Paste and drop handlers are given to the editor once; they reach the latest upload function here.
  const insertFilesRef = useRef<(files: File[], at?: number) => void>(() => {});

  const extensions = useMemo(() => fieldExtensions({ deckId, onLinkShortcut: () => setLinking(true) }), [deckId]);
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
    content: initialHtml,
    autofocus: autoFocus ? "end" : false,
    editorProps,
    onUpdate: ({ editor: current }) => onChangeRef.current(fieldHtml(current.getHTML())),
  });

  // Errors come and go after the editor exists: hand it the new aria attributes.
  useEffect(() => {
    if (!editor.isDestroyed) editor.setOptions({ editorProps });
  }, [editor, editorProps]);

  const upload = useMediaUpload(deckId, editor);
  insertFilesRef.current = (files, at) => void upload.insertFiles(files, at);

  return (
    <div className={`field rich-field${error ? " has-error" : ""}`}>
      <span id={labelId} className="field-label">
        {label}
      </span>
      <div className="field-editor">
        <FieldToolbar
          editor={editor}
          label={label}
          cloze={cloze}
          onLink={() => setLinking(true)}
          onPickFile={() => fileInput.current?.click()}
        />
        {linking && <LinkForm editor={editor} onDone={() => setLinking(false)} />}
        <EditorContent editor={editor} />
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
