/**
 * "Edit, then accept": the suggested note opens in rich fields — on a note
 * changed since, the fields it did not change as they are now — and what the
 * reviewer saves is accepted in place of the suggestion.
 */
import type { PendingSuggestion } from "@engram/sdk";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { RichField } from "../../note-editor/rich-field.js";
import { splitTags, TagsInput } from "../../note-editor/tags-input.js";
import { fieldNames } from "../../suggestion-form/field-names.js";
import { Dialog } from "../../ui/dialog.js";
import "../../note-editor/note-editor.css";

/** The suggestion laid over the note as it is now: the fields it changed from its base, the rest current. */
export function startingFields(suggestion: PendingSuggestion): Record<string, string> {
  const proposed = suggestion.fields ?? {};
  if (!suggestion.current || !suggestion.base) return { ...proposed };
  const base = suggestion.base.fields;
  return Object.fromEntries(
    Object.entries(suggestion.current.fields).map(([name, now]) => [
      name,
      (proposed[name] ?? "") !== (base[name] ?? "") ? (proposed[name] ?? "") : now,
    ]),
  );
}

export function EditAcceptDialog({
  suggestion,
  pending,
  error,
  onClose,
  onAccept,
}: {
  suggestion: PendingSuggestion;
  pending: boolean;
  error: Error | null;
  onClose: () => void;
  onAccept: (edit: { fields: Record<string, string>; tags: string[] }) => void;
}) {
  const [fields, setFields] = useState(() => startingFields(suggestion));
  const [tags, setTags] = useState<string[]>(suggestion.tags ?? suggestion.current?.tags ?? []);
  const [pendingTag, setPendingTag] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAccept({ fields, tags: [...tags, ...splitTags(pendingTag).filter((tag) => !tags.includes(tag))] });
  };
  return (
    <Dialog title="Edit, then accept" onClose={onClose} size="wide" closeButton autoFocus={false}>
      <form className="suggest-form" onSubmit={submit} noValidate>
        {fieldNames(suggestion.kind, fields).map(([name, label], index) => (
          <RichField
            key={name}
            deckId={suggestion.deckId}
            name={name}
            label={label}
            initialHtml={fields[name] ?? ""}
            cloze={suggestion.kind === "cloze" && name === "text"}
            autoFocus={index === 0}
            onChange={(html) => setFields((current) => ({ ...current, [name]: html }))}
          />
        ))}
        <TagsInput
          tags={tags}
          pending={pendingTag}
          onChange={(next, typed) => {
            setTags(next);
            setPendingTag(typed);
          }}
        />
        {error ? (
          <p role="alert" className="notice">
            {errorMessage(error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={pending} aria-busy={pending}>
            {pending ? "Accepting…" : "Accept with these changes"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
