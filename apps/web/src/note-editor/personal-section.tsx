/**
 * "Just for me": the user's own tags and My notes on a note, shown under the
 * note's fields (and to viewers, who cannot edit the note). Saved on its own,
 * apart from the note, so it never conflicts with anyone's edit of the note and
 * nobody else sees it (docs/product.md §3). My notes is plain text.
 */
import { EngramError, type PersonalNote } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../lib/error-messages.js";
import { useEngramQueries } from "../session/factories.js";
import { useEngramMutations } from "../session/mutations.js";
import { isSaveKey } from "./shortcuts.js";
import { splitTags, TagsInput } from "./tags-input.js";
import "./personal-section.css";

const maxText = 20_000;

interface PersonalSectionProps {
  deckId: string;
  noteId: string;
}

export function PersonalSection({ deckId, noteId }: PersonalSectionProps) {
  const headingId = useId();
  const personal = useQuery(useEngramQueries().personalNotes.detail(noteId));
  return (
    <section className="personal-section" aria-labelledby={headingId} data-personal-section>
      <h3 id={headingId}>Just for me</h3>
      <p className="field-hint">Only you see these. Others' edits of the note never change them.</p>
      {personal.isPending ? (
        <p>Loading your notes…</p>
      ) : personal.isError ? (
        <p role="alert">{errorMessage(personal.error)}</p>
      ) : (
        <PersonalForm deckId={deckId} noteId={noteId} saved={personal.data} />
      )}
    </section>
  );
}

interface Draft {
  tags: string[];
  pending: string;
  text: string;
}

const draftOf = (saved: PersonalNote | null): Draft => ({
  tags: saved?.tags ?? [],
  pending: "",
  text: saved?.text ?? "",
});
const sameAs = (draft: Draft, saved: PersonalNote | null) =>
  JSON.stringify([[...draft.tags, ...splitTags(draft.pending)], draft.text]) ===
  JSON.stringify([saved?.tags ?? [], saved?.text ?? ""]);

function PersonalForm({ deckId, noteId, saved }: PersonalSectionProps & { saved: PersonalNote | null }) {
  const textId = useId();
  const errorId = `${textId}-error`;
  const save = useMutation(useEngramMutations().personalNotes.save());
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [status, setStatus] = useState("");
  const dirty = !sameAs(draft, saved);
  // Saved elsewhere (another device) while nothing is typed here: show it.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (!dirtyRef.current) setDraft(draftOf(saved));
  }, [saved]);

  // Bad tags or text are the field's fault, as the SDK names it ("tags.0", "text").
  const field = save.error instanceof EngramError && save.error.code === "validation" ? save.error.field : undefined;
  const tagsError = field?.startsWith("tags") ? save.error?.message : undefined;
  const textError = field === "text" ? save.error?.message : undefined;
  const otherError = save.isError && !tagsError && !textError ? errorMessage(save.error) : undefined;

  const submit = () => {
    if (save.isPending) return;
    const tags = [...draft.tags, ...splitTags(draft.pending).filter((tag) => !draft.tags.includes(tag))];
    setStatus("");
    save.mutate(
      { deckId, noteId, input: { tags, text: draft.text } },
      {
        onSuccess: () => {
          setDraft({ tags, pending: "", text: draft.text });
          setStatus("Your notes are saved.");
        },
      },
    );
  };
  // Ctrl+Enter here saves this section, not the note around it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isSaveKey(event)) return;
    event.preventDefault();
    event.stopPropagation();
    submit();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the key handler only catches the save shortcut of the fields inside.
    <div className="personal-form" onKeyDown={onKeyDown}>
      <TagsInput
        label="My tags"
        name="my-tags"
        tags={draft.tags}
        pending={draft.pending}
        error={tagsError}
        onChange={(tags, pending) => setDraft((current) => ({ ...current, tags, pending }))}
      />
      <div className="field">
        <label htmlFor={textId}>My notes</label>
        <textarea
          id={textId}
          name="my-notes"
          rows={3}
          maxLength={maxText}
          value={draft.text}
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? errorId : undefined}
          onChange={(event) => setDraft((current) => ({ ...current, text: event.target.value }))}
        />
        {textError ? (
          <p id={errorId} className="field-error">
            {textError}
          </p>
        ) : null}
      </div>
      {otherError ? <p role="alert">{otherError}</p> : null}
      <div className="personal-actions">
        <button
          type="button"
          className="button secondary"
          onClick={submit}
          disabled={!dirty || save.isPending}
          aria-busy={save.isPending || undefined}
        >
          {save.isPending ? "Saving…" : "Save my notes"}
        </button>
        <p role="status" className="personal-status">
          {dirty ? "" : status}
        </p>
      </div>
    </div>
  );
}
