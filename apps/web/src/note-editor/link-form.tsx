/** The URL prompt of a field's Link button: web and email addresses only. */
import type { Editor } from "@tiptap/react";
import { useId, useState } from "react";
import { isAllowedLink } from "./field-extensions.js";

export function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const id = useId();
  const [href, setHref] = useState(() => String(editor.getAttributes("link").href ?? ""));
  const [error, setError] = useState<string | null>(null);
  const hasLink = editor.isActive("link");

  const apply = () => {
    const url = href.trim();
    if (!isAllowedLink(url)) {
      setError("Use a web address starting with http:// or https://, or an email link starting with mailto:.");
      return;
    }
    const chain = editor.chain().focus().extendMarkRange("link");
    if (editor.state.selection.empty && !hasLink) {
      chain.insertContent({ type: "text", text: url, marks: [{ type: "link", attrs: { href: url } }] }).run();
    } else chain.setLink({ href: url }).run();
    onDone();
  };

  return (
    // A div, not a form: it sits inside the note's form, and Enter here applies the link only.
    <div className="link-form" data-keeps-escape="">
      <label htmlFor={`${id}-href`}>Link address</label>
      <input
        id={`${id}-href`}
        type="url"
        inputMode="url"
        // biome-ignore lint/a11y/noAutofocus: the prompt opens to be typed in.
        autoFocus
        value={href}
        placeholder="https://"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setHref(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.stopPropagation();
            apply();
          } else if (event.key === "Escape") {
            event.preventDefault();
            editor.commands.focus();
            onDone();
          }
        }}
      />
      <button type="button" className="button small primary" onClick={apply}>
        Apply
      </button>
      {hasLink && (
        <button
          type="button"
          className="button small secondary"
          onClick={() => {
            editor.chain().focus().extendMarkRange("link").unsetLink().run();
            onDone();
          }}
        >
          Remove link
        </button>
      )}
      <button
        type="button"
        className="button small secondary"
        onClick={() => {
          editor.commands.focus();
          onDone();
        }}
      >
        Cancel
      </button>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
