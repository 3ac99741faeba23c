/**
 * Suggesting a change to a deck (docs/product.md §4, "Suggestions"): an edit
 * of a note (its fields and tags), a new note, or its deletion, each with a
 * rationale the deck's maintainers read before they accept or reject it.
 */
import type { Note } from "@engram/sdk";
import { maxRationaleLength } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { TextAreaField } from "../forms/text-field.js";
import { errorMessage } from "../lib/error-messages.js";
import { RichField } from "../note-editor/rich-field.js";
import { splitTags, TagsInput } from "../note-editor/tags-input.js";
import { useEngramMutations } from "../session/mutations.js";
import { Dialog } from "../ui/dialog.js";
import { fieldNames, type SuggestableKind, suggestableKinds } from "./field-names.js";
import "../note-editor/note-editor.css";
import "./suggest.css";

export type SuggestTarget = { action: "create" } | { action: "edit"; note: Note } | { action: "delete"; note: Note };

export interface SuggestDialogProps {
  deckId: string;
  target: SuggestTarget;
  onClose: () => void;
  /** Called once the suggestion is sent, with a sentence saying so. */
  onSent: (message: string) => void;
}

const titles = { create: "Suggest a note", edit: "Suggest an edit", delete: "Suggest deletion" } as const;
const emptyFields = (kind: string) => Object.fromEntries(fieldNames(kind, null).map(([name]) => [name, ""]));
const stringFields = (fields: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((fields ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name,
      typeof value === "string" ? value : "",
    ]),
  );

export function SuggestDialog({ deckId, target, onClose, onSent }: SuggestDialogProps) {
  const mutations = useEngramMutations();
  const suggest = useMutation(mutations.suggestions.suggest());
  const [kind, setKind] = useState<SuggestableKind>("basic");
  const [fields, setFields] = useState<Record<string, string>>(() =>
    target.action === "create" ? emptyFields("basic") : stringFields(target.note.fields),
  );
  const [tags, setTags] = useState<string[]>(() => (target.action === "create" ? [] : target.note.tags));
  const [pendingTag, setPendingTag] = useState("");
  const [rationale, setRationale] = useState("");
  const shownKind = target.action === "create" ? kind : target.note.kind;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const allTags = [...tags, ...splitTags(pendingTag).filter((tag) => !tags.includes(tag))];
    const input =
      target.action === "create"
        ? { action: "create" as const, deckId, kind, fields, tags: allTags, rationale }
        : target.action === "edit"
          ? { action: "edit" as const, noteId: target.note.id, fields, tags: allTags, rationale }
          : { action: "delete" as const, noteId: target.note.id, rationale };
    suggest.mutate(input, {
      onSuccess: () => {
        onSent("Suggestion sent. The deck's maintainers will review it; see it under My suggestions.");
        onClose();
      },
    });
  };

  return (
    <Dialog
      title={titles[target.action]}
      onClose={onClose}
      size={target.action === "delete" ? "normal" : "wide"}
      closeButton
      autoFocus={target.action !== "edit"}
      description="The deck's owner and editors see your suggestion with your reason, and accept or reject it."
    >
      <form className="suggest-form" onSubmit={submit} noValidate>
        {target.action === "create" ? (
          <div className="field">
            <label htmlFor="suggest-kind">Kind of note</label>
            <select
              id="suggest-kind"
              value={kind}
              onChange={(event) => {
                const next = event.target.value as SuggestableKind;
                setKind(next);
                setFields(emptyFields(next));
              }}
            >
              {suggestableKinds.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {target.action === "delete" ? (
          <p>
            Suggest deleting this note with its cards. If a maintainer accepts, it is deleted for everyone who studies
            the deck.
          </p>
        ) : (
          <>
            {fieldNames(shownKind, fields).map(([name, label], index) => (
              <RichField
                // A new kind starts its fields afresh.
                key={`${shownKind}-${name}`}
                deckId={deckId}
                name={name}
                label={label}
                initialHtml={fields[name] ?? ""}
                cloze={shownKind === "cloze" && name === "text"}
                autoFocus={index === 0}
                onChange={(html) => setFields((current) => ({ ...current, [name]: html }))}
              />
            ))}
            <TagsInput
              tags={tags}
              pending={pendingTag}
              onChange={(next, pending) => {
                setTags(next);
                setPendingTag(pending);
              }}
            />
          </>
        )}
        <TextAreaField
          name="rationale"
          label="Why (shown to the maintainers)"
          hint={`At most ${maxRationaleLength} characters.`}
          value={rationale}
          maxLength={maxRationaleLength}
          rows={3}
          onChange={(event) => setRationale(event.target.value)}
        />
        {suggest.isError ? (
          <p role="alert" className="notice">
            {errorMessage(suggest.error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={suggest.isPending} aria-busy={suggest.isPending}>
            {suggest.isPending ? "Sending…" : "Send suggestion"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
