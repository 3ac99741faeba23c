/**
 * One note type opened from the settings screen: its name, fields, card
 * templates and CSS beside a live preview. Owners and editors change it and
 * save it with the version they opened; viewers read the same form, locked.
 */
import { type NoteType, validateNoteType } from "@engram/core";
import { useMutation } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { type FormEvent, lazy, Suspense, useId, useMemo, useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { type FormErrors, noErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { errorCode, errorMessage, fieldErrors } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/factories.js";
import { Dialog } from "../../ui/dialog.js";
import {
  addedField,
  changesFields,
  controlName,
  draftOf,
  type NoteTypeDraft,
  noteTypeOf,
  previewFields,
} from "./note-type-draft.js";
import { NoteTypePreview } from "./note-type-preview.js";
import type { DeckNoteType } from "./use-note-types.js";
// The HTML view's colours, light and dark.
import "../../note-editor/note-editor.css";

/** The note editor's CodeMirror HTML view, loaded when a template is first shown for editing. */
const HtmlView = lazy(() => import("../../note-editor/html-view.js"));

interface Props {
  deckId: string;
  stored: DeckNoteType;
  /** How many of the deck's notes use it; fields stay as they are while any do. */
  noteCount: number | undefined;
  /** A note of this type to preview with, when the deck has one. */
  sampleNote: Record<string, unknown> | undefined;
  readOnly: boolean;
  onClose: () => void;
}

export function NoteTypeEditor({ deckId, stored, noteCount, sampleNote, readOnly, onClose }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const update = useMutation(useEngramMutations().noteTypes.update());
  const [draft, setDraft] = useState(() => draftOf(stored));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState("");
  const [stale, setStale] = useState(false);
  // Cards the last save would have deleted, which it did not: saving again deletes them only when asked.
  const [doomedCards, setDoomedCards] = useState<number | null>(null);
  // The version this form started from: saving states it, so someone else's save is never overwritten.
  const [version, setVersion] = useState(stored.version);
  // Fields are keyed by name in every note: a stored field keeps its name while notes use the type.
  const namesFixed = readOnly || noteCount === undefined || noteCount > 0;

  const change = (patch: Partial<NoteTypeDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setStatus("");
  };
  const preview = useMemo(() => noteTypeOf(draft, stored.kind), [draft, stored.kind]);
  const sample = useMemo(() => previewFields(draft, sampleNote), [draft, sampleNote]);

  const save = (deleteCards: boolean) => {
    if (readOnly || update.isPending) return;
    const next = noteTypeOf(draft, stored.kind);
    setStatus("");
    setDoomedCards(null);
    // Anki's rules checked here first, each message beside what it is about.
    const checked = validateNoteType(next);
    if (!checked.ok) {
      setErrors(
        placedErrors(
          checked.issues.map((issue) => [issue.path.join("."), issue.message]),
          draft,
        ),
      );
      return;
    }
    const patch: Partial<NoteType> = { name: next.name, templates: next.templates, css: next.css };
    if (changesFields(draft, stored)) patch.fields = next.fields;
    update.mutate(
      { noteTypeId: stored.id, version, patch, deleteCards },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setErrors(noErrors);
          setStale(false);
          setDraft(draftOf(saved));
          setStatus(`Note type saved (version ${saved.version}).`);
        },
        onError: (error) => {
          setErrors(refusal(error, draft));
          setStale(errorCode(error) === "note-type/conflict");
          const cards = inUse(error).cards;
          setDoomedCards(typeof cards === "number" ? cards : null);
        },
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(false);
  };
  // The form again from the type as stored now (the list reloads after a refused stale save).
  const reload = () => {
    setDraft(draftOf(stored));
    setVersion(stored.version);
    setErrors(noErrors);
    setStale(false);
    setDoomedCards(null);
  };

  const title = readOnly ? `Note type: ${stored.name}` : `Edit note type: ${stored.name}`;
  return (
    <Dialog title={title} onClose={onClose} size="wide" className="note-type-editor" closeButton>
      <form ref={formRef} noValidate onSubmit={submit} className="note-type-form">
        <div className="note-type-columns">
          <div className="note-type-fields">
            <ErrorSummary errors={errors} formRef={formRef} />
            {readOnly ? (
              <p className="settings-readonly">Only the deck's owner and editors change note types.</p>
            ) : null}
            {stale ? (
              <button type="button" className="button secondary" onClick={reload} disabled={stored.version === version}>
                Reload the note type
              </button>
            ) : null}
            {doomedCards !== null ? (
              <div className="notice">
                <p>
                  {doomedCards === 1 ? "1 card" : `${doomedCards} cards`} would no longer be made by these templates.
                  Saving anyway deletes {doomedCards === 1 ? "it" : "them"} with everyone's study history of{" "}
                  {doomedCards === 1 ? "it" : "them"}.
                </p>
                <button type="button" className="button danger" onClick={() => save(true)} disabled={update.isPending}>
                  Save and delete {doomedCards === 1 ? "1 card" : `${doomedCards} cards`}
                </button>
              </div>
            ) : null}
            <TextInput
              name="name"
              label="Name"
              value={draft.name}
              readOnly={readOnly}
              error={errors.fields.name}
              onChange={(name) => change({ name })}
            />
            <FieldList
              draft={draft}
              namesFixed={namesFixed}
              readOnly={readOnly}
              noteCount={noteCount}
              errors={errors}
              onChange={change}
            />
            {draft.templates.map((template, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a template's place is its card ordinal, and templates are not reordered here.
              <fieldset key={`template-${index}`} className="note-type-template">
                <legend>
                  {stored.kind === "cloze" ? "Cloze template" : `Card ${index + 1}`}: {template.name}
                </legend>
                <TextInput
                  name={`template-${index}-name`}
                  label={`Card ${index + 1} name`}
                  value={template.name}
                  readOnly={readOnly}
                  error={errors.fields[`template-${index}-name`]}
                  onChange={(name) => change({ templates: replaced(draft.templates, index, { ...template, name }) })}
                />
                {(["front", "back"] as const).map((side) => (
                  <CodeInput
                    key={side}
                    html
                    name={`template-${index}-${side}`}
                    label={`${template.name || `Card ${index + 1}`} ${side} template`}
                    value={template[side]}
                    readOnly={readOnly}
                    error={errors.fields[`template-${index}-${side}`]}
                    onChange={(text) =>
                      change({ templates: replaced(draft.templates, index, { ...template, [side]: text }) })
                    }
                  />
                ))}
              </fieldset>
            ))}
            <CodeInput
              name="css"
              label="Styling (CSS)"
              value={draft.css}
              readOnly={readOnly}
              error={errors.fields.css}
              onChange={(css) => change({ css })}
            />
          </div>
          <NoteTypePreview deckId={deckId} noteType={preview} fields={sample} />
        </div>
        <div className="note-type-footer">
          <p role="status" className="note-type-status">
            {status}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={onClose}>
              {readOnly ? "Close" : "Cancel"}
            </button>
            {readOnly ? null : (
              <SubmitButton pending={update.isPending} pendingLabel="Saving…">
                Save note type
              </SubmitButton>
            )}
          </div>
        </div>
      </form>
    </Dialog>
  );
}

function replaced<T>(items: T[], index: number, item: T): T[] {
  return items.map((current, at) => (at === index ? item : current));
}

function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

function FieldList({
  draft,
  namesFixed,
  readOnly,
  noteCount,
  errors,
  onChange,
}: {
  draft: NoteTypeDraft;
  /** Stored fields keep their names (notes use the type); fields added here may still be named. */
  namesFixed: boolean;
  readOnly: boolean;
  noteCount: number | undefined;
  errors: FormErrors;
  onChange: (patch: Partial<NoteTypeDraft>) => void;
}) {
  const [adding, setAdding] = useState("");
  const addId = useId();
  const hintId = useId();
  const fields = draft.fields;
  const add = () => {
    const name = adding.trim();
    if (name === "") return;
    onChange({ fields: [...fields, addedField(name)] });
    setAdding("");
  };
  return (
    <fieldset className="note-type-field-list" aria-describedby={readOnly ? undefined : hintId}>
      <legend>Fields</legend>
      {readOnly ? null : (
        <p id={hintId} className="field-hint">
          {noteCount === undefined
            ? "Counting the notes of this type…"
            : noteCount > 0
              ? `${noteCount === 1 ? "1 note uses" : `${noteCount} notes use`} this type, so its fields keep their names: renaming one would lose what those notes hold in it. Fields can be added (empty in every note), moved, or removed while empty in every note.`
              : "No note uses this type yet: add, rename, move or remove fields freely."}
        </p>
      )}
      {errors.fields.fields ? <p className="field-error">{errors.fields.fields}</p> : null}
      <ol className="note-type-field-rows" aria-label="Fields">
        {fields.map((field, index) => (
          <li key={field.key} className="note-type-field-row">
            <TextInput
              name={field.key}
              label={`Field ${index + 1}`}
              value={field.name}
              readOnly={readOnly || (namesFixed && field.stored !== null)}
              error={errors.fields[field.key]}
              onChange={(name) => onChange({ fields: replaced(fields, index, { ...field, name }) })}
            />
            {readOnly ? null : (
              <span className="note-type-field-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${field.name || `field ${index + 1}`} up`}
                  disabled={index === 0}
                  onClick={() => onChange({ fields: moved(fields, index, index - 1) })}
                >
                  <ArrowUp aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${field.name || `field ${index + 1}`} down`}
                  disabled={index === fields.length - 1}
                  onClick={() => onChange({ fields: moved(fields, index, index + 1) })}
                >
                  <ArrowDown aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${field.name || `field ${index + 1}`}`}
                  disabled={fields.length === 1}
                  onClick={() => onChange({ fields: fields.filter((_, at) => at !== index) })}
                >
                  <Trash2 aria-hidden="true" />
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      {readOnly ? null : (
        <div className="note-type-add-field">
          <label htmlFor={addId}>New field</label>
          <input
            id={addId}
            value={adding}
            autoComplete="off"
            onChange={(event) => setAdding(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== "Enter") return;
              event.preventDefault();
              add();
            }}
          />
          <button type="button" className="button secondary small" onClick={add} disabled={adding.trim() === ""}>
            <Plus aria-hidden="true" /> Add field
          </button>
        </div>
      )}
    </fieldset>
  );
}

interface InputProps {
  name: string;
  label: string;
  value: string;
  readOnly: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
}

function TextInput({ name, label, value, readOnly, error, onChange }: InputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-field={name}
        value={value}
        readOnly={readOnly}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Template and CSS source, as written: a template in the note editor's HTML
 * view while it can change, anything else a monospace text box.
 */
function CodeInput({ name, label, value, readOnly, error, onChange, html = false }: InputProps & { html?: boolean }) {
  const id = useId();
  const errorId = `${id}-error`;
  if (html && !readOnly) {
    return (
      <div className={`field${error ? " has-error" : ""}`}>
        <span id={`${id}-label`} className="field-label">
          {label}
        </span>
        <div className="code-view">
          <Suspense fallback={<p className="html-view-loading">Loading the HTML editor…</p>}>
            <HtmlView
              initialText={value}
              labelledBy={`${id}-label`}
              describedBy={error ? errorId : ""}
              name={name}
              invalid={Boolean(error)}
              autoFocus={false}
              onChange={onChange}
            />
          </Suspense>
        </div>
        {error ? (
          <p id={errorId} className="field-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        data-field={name}
        className="code-input"
        value={value}
        readOnly={readOnly}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        rows={Math.min(12, Math.max(3, value.split("\n").length + 1))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a refused save says: Anki's rules by path, a field that still holds text beside it, anything else on top. */
function refusal(error: unknown, draft: NoteTypeDraft): FormErrors {
  const { field, notes } = inUse(error);
  if (typeof field === "string") {
    const at = draft.fields.findIndex((candidate) => candidate.stored === field);
    const message = `${field} holds text in ${notes === 1 ? "1 note" : `${notes ?? "some"} notes`}: empty it there before removing it.`;
    return at < 0 ? { fields: {}, summary: [{ message }] } : placedErrors([[`fields.${at}`, message]], draft);
  }
  if (typeof inUse(error).cards === "number") return noErrors;
  const messages = Object.entries(fieldErrors(error));
  return messages.length > 0
    ? placedErrors(messages, draft)
    : { fields: {}, summary: [{ message: errorMessage(error) }] };
}

/** The detail of a `note-type/in-use` refusal: the cards a change would delete, or a field that holds text. */
function inUse(error: unknown): { cards?: unknown; field?: unknown; notes?: unknown } {
  if (errorCode(error) !== "note-type/in-use") return {};
  const detail = (error as { detail?: unknown }).detail;
  return detail && typeof detail === "object" ? (detail as { cards?: unknown; field?: unknown; notes?: unknown }) : {};
}

/** Each message beside the control its path ("templates.0.front") names, all of them in the summary. */
function placedErrors(messages: [string, string][], draft: NoteTypeDraft): FormErrors {
  const fields: Record<string, string> = {};
  const summary: FormErrors["summary"] = [];
  for (const [path, message] of messages) {
    const control = path === "" ? "" : controlName(path, draft);
    if (control === "") {
      summary.push({ message });
      continue;
    }
    if (fields[control]) continue;
    fields[control] = message;
    summary.push({ field: control, message });
  }
  return { fields, summary };
}
