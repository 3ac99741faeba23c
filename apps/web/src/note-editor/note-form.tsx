/**
 * The note's fields, tags and live preview, checked by core's rules before
 * saving. Adding keeps the dialog open for the next note (Anki's Add window);
 * editing saves and hands back.
 */
import type { DeckNoteType } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FocusEvent, type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { ErrorSummary } from "../forms/error-summary.js";
import { type FormErrors, noErrors } from "../forms/form-errors.js";
import { SubmitButton } from "../forms/submit-button.js";
import { useEngramMutations } from "../session/mutations.js";
import { CardPreview } from "./card-preview.js";
import { ChangeNotice } from "./change-notice.js";
import { fieldLabel, withStoredValues } from "./co-editing.js";
import { FieldConflict } from "./field-conflict.js";
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
import { type EditingNote, useMergedSave } from "./use-merged-save.js";
import { useNotePresence } from "./use-note-presence.js";

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
   * The note being edited, as loaded and as it is now: a change someone else
   * saved meanwhile is merged into the draft on saving (use-merged-save.ts);
   * one that cannot be merged keeps the draft and offers `onReload`.
   */
  editing?: EditingNote | undefined;
  onReload?: (() => void) | undefined;
  initial: NoteDraft;
  /** The deck's note types, offered beside the built-in kinds when adding. */
  noteTypes: readonly DeckNoteType[];
  formRef: React.RefObject<HTMLFormElement | null>;
  onDirtyChange: (dirty: boolean) => void;
  onCancel: () => void;
  /** `notice` says what else the save did, as merging someone else's change. */
  onSaved: (noteId: string, notice?: string) => void;
}

/** The field (stored name) a focus or blur happened in: each field's wrapper names it. */
const noteFieldOf = (event: FocusEvent) =>
  (event.target as Element).closest("[data-note-field]")?.getAttribute("data-note-field") ?? null;

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
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [stale, setStale] = useState(false);
  const merged = useMergedSave(editing, { setDraft, setErrors, setStale, onSaved });
  const saving = create.isPending || merged.saving;
  const presence = useNotePresence(deckId, editing?.noteId);
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
    if (editing) {
      void merged.submit(draft);
      return;
    }
    const input = draftInput(draft);
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
  const { conflict } = merged;
  const conflictChoice = (stored: string) =>
    conflict?.fields.includes(stored) ? (conflict.choices[stored] ?? null) : undefined;
  const editingBy = (stored: string) => {
    const names = presence.editors.get(stored);
    return names ? `${names.join(", ")} ${names.length === 1 ? "is" : "are"} editing` : undefined;
  };
  // A field someone else changed too shows both versions; its editor waits for a choice, unless editing it.
  // `slot` keeps a built-in kind's two editors in place when the kind changes (Front becomes Text).
  const field = (stored: string, editor: ReactNode, slot = stored) => {
    const choice = conflictChoice(stored);
    return (
      <div key={slot} data-note-field={stored}>
        {conflict && choice !== undefined && choice !== "mine" && choice !== "theirs" ? (
          <FieldConflict
            deckId={deckId}
            label={fieldLabel(draft, stored)}
            mine={conflict.mine[stored] ?? ""}
            theirs={conflict.theirs[stored] ?? ""}
            author={conflict.author}
            editing={choice === "edit"}
            onChoose={(next) => {
              const value = merged.choose(stored, next);
              if (value !== undefined)
                setDraft((current) => withStoredValues(current, { [stored]: value }, current.tags));
            }}
          />
        ) : null}
        {choice === null ? null : editor}
      </div>
    );
  };
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={submit}
      className="note-form"
      onFocus={(event) => presence.focusField(noteFieldOf(event))}
      onBlur={() => presence.focusField(null)}
    >
      <div className="note-form-columns">
        <div className="note-form-fields">
          <ErrorSummary errors={errors} formRef={formRef} />
          {stale && onReload && (
            <button type="button" className="button secondary" onClick={onReload}>
              Reload the note
            </button>
          )}
          {editing && merged.base ? (
            <ChangeNotice draft={draft} base={merged.base} latest={editing.latest} authorOf={editing.authorOf} />
          ) : null}
          {editing ? (
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
            custom.fields.map((name, index) =>
              field(
                name,
                <RichField
                  // A field's editor belongs to its type and place: switching types, adding the next note or a merge replacing its text starts a new one.
                  key={`${custom.id}-${name}-${generation}-${merged.revision(name)}`}
                  deckId={deckId}
                  name={customFieldName(index)}
                  label={name}
                  initialHtml={draft.fields[name] ?? ""}
                  error={errors.fields[customFieldName(index)]}
                  cloze={custom.kind === "cloze"}
                  autoFocus={index === 0 && !conflict}
                  presence={editingBy(name)}
                  onChange={(html) => changeField(name, html)}
                />,
              ),
            )
          ) : draft.kind === "image_occlusion" ? (
            <>
              {conflict?.fields.map((stored) => field(stored, null))}
              <OcclusionEditor
                key={`occlusion-${generation}-${merged.revisions}`}
                deckId={deckId}
                fields={draft.fields}
                errors={errors.fields}
                onChange={(fields) => change({ fields })}
              />
            </>
          ) : (
            <>
              {field(
                firstField.name,
                <RichField
                  key={`first-${generation}-${merged.revision(firstField.name)}`}
                  deckId={deckId}
                  name={firstField.name}
                  label={firstField.label}
                  initialHtml={draft.first}
                  error={errors.fields[firstField.name]}
                  cloze={draft.kind === "cloze"}
                  autoFocus={!conflict}
                  presence={editingBy(firstField.name)}
                  onChange={(first) => change({ first })}
                />,
                "first",
              )}
              {field(
                secondField.name,
                <RichField
                  key={`second-${generation}-${merged.revision(secondField.name)}`}
                  deckId={deckId}
                  name={secondField.name}
                  label={secondField.label}
                  initialHtml={draft.second}
                  error={errors.fields[secondField.name]}
                  presence={editingBy(secondField.name)}
                  onChange={(second) => change({ second })}
                />,
                "second",
              )}
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
