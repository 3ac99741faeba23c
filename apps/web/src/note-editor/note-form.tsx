/**
 * The note's fields, tags and live preview, checked by core's rules before
 * saving. Adding keeps the dialog open for the next note (Anki's Add window);
 * editing saves and hands back.
 */
import type { DeckNoteType } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ErrorSummary } from "../forms/error-summary.js";
import { type FormErrors, noErrors } from "../forms/form-errors.js";
import { SubmitButton } from "../forms/submit-button.js";
import { errorCode } from "../lib/error-messages.js";
import { useEngramMutations } from "../session/factories.js";
import { CardPreview } from "./card-preview.js";
import { KindChoice } from "./kind-choice.js";
import {
  builtInKinds,
  checkDraft,
  customFieldName,
  draftInput,
  draftNote,
  fieldsFor,
  fieldsOf,
  type KindValue,
  kindValue,
  type NoteDraft,
  saveErrors,
  typeLabel,
} from "./note-draft.js";
import { OcclusionEditor } from "./occlusion-editor.js";
import { PersonalSection } from "./personal-section.js";
import { RichField } from "./rich-field.js";
import { ShortcutHelp } from "./shortcut-help.js";
import { TagsInput } from "./tags-input.js";

const lastKindKey = "engram.note-editor.kind";

/**
 * The type of the last note added here (Anki's Add window keeps it), when it
 * is still on offer; Basic the first time.
 */
export function rememberedKind(noteTypes: readonly DeckNoteType[]): KindValue {
  try {
    const kind = localStorage.getItem(lastKindKey) ?? "";
    if ((builtInKinds as readonly string[]).includes(kind)) return kind as KindValue;
    return noteTypes.some((type) => `type:${type.id}` === kind) ? (kind as KindValue) : "basic";
  } catch {
    // Storage switched off in this browser: start from Basic each time.
    return "basic";
  }
}

/** A draft switched to another type: what was typed moves along field by field, in order. */
export function withKind(draft: NoteDraft, value: KindValue, noteTypes: readonly DeckNoteType[]): NoteDraft {
  const values =
    draft.kind === "custom" && draft.noteType
      ? draft.noteType.fields.map((name) => draft.fields[name] ?? "")
      : [draft.first, draft.second];
  const noteType = value.startsWith("type:") ? noteTypes.find((type) => `type:${type.id}` === value) : undefined;
  if (noteType) {
    const fields = Object.fromEntries(noteType.fields.map((name, index) => [name, values[index] ?? ""]));
    return { ...draft, kind: "custom", noteType, fields, first: "", second: "" };
  }
  const kind = value.startsWith("type:") ? "basic" : (value as NoteDraft["kind"]);
  return { ...draft, kind, noteType: null, fields: {}, first: values[0] ?? "", second: values[1] ?? "" };
}

function rememberKind(kind: KindValue) {
  try {
    localStorage.setItem(lastKindKey, kind);
  } catch {
    // Nothing to keep it in; the next add starts from Basic.
  }
}

interface NoteFormProps {
  deckId: string;
  /**
   * The note being edited and its version when it was loaded; a save refused
   * because the note changed since keeps the draft and offers `onReload`.
   */
  editing?: { noteId: string; version: number } | undefined;
  onReload?: (() => void) | undefined;
  initial: NoteDraft;
  /** The deck's note types, offered beside the built-in kinds when adding. */
  noteTypes: readonly DeckNoteType[];
  formRef: React.RefObject<HTMLFormElement | null>;
  onDirtyChange: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: (noteId: string) => void;
}

export function NoteForm({
  deckId,
  editing,
  onReload,
  initial,
  noteTypes,
  formRef,
  onDirtyChange,
  onCancel,
  onSaved,
}: NoteFormProps) {
  const mutations = useEngramMutations();
  const create = useMutation(mutations.notes.create());
  const update = useMutation(mutations.notes.update());
  const saving = create.isPending || update.isPending;
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  // The note and version the draft starts from, kept while refetches bring newer
  // ones: saving from it is what lets the server refuse to overwrite someone else's edit.
  const [edited] = useState(editing);
  const [stale, setStale] = useState(false);
  // A new generation of field editors after each added note: empty, the first one focused.
  const [generation, setGeneration] = useState(0);
  const [added, setAdded] = useState(0);
  const baseline = useRef(initial);

  // Only what was typed counts: switching the note type alone loses nothing.
  const typed = (draft: NoteDraft) =>
    JSON.stringify([
      [draft.first, draft.second, ...Object.values(draft.fields)].filter((value) => value !== ""),
      draft.tags,
      draft.pendingTag,
    ]);
  const dirty = typed(draft) !== typed(baseline.current);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const change = (patch: Partial<NoteDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    if (added > 0) setAdded(0);
  };
  const changeField = (name: string, html: string) => {
    setDraft((current) => ({ ...current, fields: { ...current.fields, [name]: html } }));
    if (added > 0) setAdded(0);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const problems = checkDraft(draft);
    setErrors(problems ?? noErrors);
    if (problems) return;
    const input = draftInput(draft);
    if (edited) {
      update.mutate(
        { ...edited, input },
        {
          onSuccess: (note) => onSaved(note.id),
          onError: (error) => {
            setErrors(saveErrors(error, draft));
            setStale(errorCode(error) === "note/conflict");
          },
        },
      );
      return;
    }
    create.mutate(
      { deckId, input },
      {
        onSuccess: (note) => {
          rememberKind(kindValue(draft));
          const fields = draft.noteType ? fieldsFor(draft.noteType) : {};
          const next: NoteDraft = { ...draft, first: "", second: "", fields, tags: input.tags, pendingTag: "" };
          baseline.current = next;
          setDraft(next);
          setGeneration((count) => count + 1);
          setAdded((count) => count + 1);
          onSaved(note.id);
        },
        onError: (error) => setErrors(saveErrors(error, draft)),
      },
    );
  };

  const custom = draft.kind === "custom" ? draft.noteType : null;
  const [firstField, secondField] = fieldsOf(draft.kind);
  return (
    <form ref={formRef} noValidate onSubmit={submit} className="note-form">
      <div className="note-form-columns">
        <div className="note-form-fields">
          <ErrorSummary errors={errors} formRef={formRef} />
          {stale && onReload && (
            <button type="button" className="button secondary" onClick={onReload}>
              Reload the note
            </button>
          )}
          {edited ? (
            <p className="note-kind">
              Note type: <strong>{typeLabel(draft)}</strong>
            </p>
          ) : (
            <KindChoice
              value={kindValue(draft)}
              noteTypes={noteTypes}
              onChange={(value) => {
                setDraft((current) => withKind(current, value, noteTypes));
                if (added > 0) setAdded(0);
              }}
            />
          )}
          {custom ? (
            custom.fields.map((name, index) => (
              <RichField
                // A field's editor belongs to its type and place: switching types or adding the next note starts a new one.
                key={`${custom.id}-${name}-${generation}`}
                deckId={deckId}
                name={customFieldName(index)}
                label={name}
                initialHtml={draft.fields[name] ?? ""}
                error={errors.fields[customFieldName(index)]}
                cloze={custom.kind === "cloze"}
                autoFocus={index === 0}
                onChange={(html) => changeField(name, html)}
              />
            ))
          ) : draft.kind === "image_occlusion" ? (
            <OcclusionEditor
              key={`occlusion-${generation}`}
              deckId={deckId}
              fields={draft.fields}
              errors={errors.fields}
              onChange={(fields) => change({ fields })}
            />
          ) : (
            <>
              <RichField
                key={`first-${generation}`}
                deckId={deckId}
                name={firstField.name}
                label={firstField.label}
                initialHtml={draft.first}
                error={errors.fields[firstField.name]}
                cloze={draft.kind === "cloze"}
                autoFocus
                onChange={(first) => change({ first })}
              />
              <RichField
                key={`second-${generation}`}
                deckId={deckId}
                name={secondField.name}
                label={secondField.label}
                initialHtml={draft.second}
                error={errors.fields[secondField.name]}
                onChange={(second) => change({ second })}
              />
            </>
          )}
          <TagsInput
            tags={draft.tags}
            pending={draft.pendingTag}
            error={errors.fields.tags}
            onChange={(tags, pendingTag) => change({ tags, pendingTag })}
          />
          {editing ? <PersonalSection deckId={deckId} noteId={editing.noteId} /> : null}
        </div>
        <CardPreview deckId={deckId} note={draftNote(draft)} />
      </div>
      <div className="note-form-footer">
        <ShortcutHelp />
        <p role="status" className="note-form-status">
          {added > 0 ? "Note added" : ""}
        </p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
          <SubmitButton pending={saving} pendingLabel="Saving…">
            Save
          </SubmitButton>
        </div>
      </div>
    </form>
  );
}
