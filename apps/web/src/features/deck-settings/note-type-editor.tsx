/**
 * One note type opened from the settings screen: its name, fields, card
 * templates and CSS beside a live preview, as Anki's Fields and Cards
 * dialogs. Owners and editors rename, add, move and remove fields and
 * templates and save with the version they opened (notes keep their text,
 * cards their schedules; losing either is confirmed first), or delete a type
 * no note uses; viewers read the same form, locked.
 */
import { type NoteType, validateNoteType } from "@engram/core";
import { useMutation } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Copy, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useMemo, useRef, useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { ErrorSummary } from "../../forms/error-summary.js";
import { type FormErrors, noErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { errorCode, errorMessage, fieldErrors } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Dialog } from "../../ui/dialog.js";
import {
  addedField,
  addedTemplate,
  changesFields,
  controlName,
  draftOf,
  followFieldName,
  mapsOf,
  type NoteTypeDraft,
  noteTypeOf,
  previewFields,
} from "./note-type-draft.js";
import { NoteTypePreview } from "./note-type-preview.js";
import type { DeckNoteType } from "./use-note-types.js";
// The HTML view's colours, light and dark.
import "../../note-editor/note-editor.css";
import { HtmlView } from "../../note-editor/html-view-on-demand.js";

/** The note editor's CodeMirror HTML view, loaded when a template is first shown for editing. */

interface Props {
  deckId: string;
  stored: DeckNoteType;
  /** How many of the deck's notes use it; it can be deleted when none do. */
  noteCount: number | undefined;
  /** A note of this type to preview with, when the deck has one. */
  sampleNote: Record<string, unknown> | undefined;
  readOnly: boolean;
  onClose: () => void;
}

export function NoteTypeEditor({ deckId, stored, noteCount, sampleNote, readOnly, onClose }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const deleteHintId = useId();
  const mutations = useEngramMutations();
  const update = useMutation(mutations.noteTypes.update());
  const remove = useMutation(mutations.noteTypes.remove());
  const [draft, setDraft] = useState(() => draftOf(stored));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState("");
  const [stale, setStale] = useState(false);
  // What the last save would have lost, which it did not: saving again loses it only when asked.
  const [doomed, setDoomed] = useState<{ cards: number; schedules: number } | null>(null);
  // What the user agreed to lose so far, kept while a second refusal asks about the other.
  const [consent, setConsent] = useState<{ deleteCards?: boolean; discardText?: boolean }>({});
  const [lostText, setLostText] = useState<{ field: string; notes: number } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Bumped when templates change from outside their editors (a field renamed or removed), which then start anew.
  const [revision, setRevision] = useState(0);
  // The version this form started from: saving states it, so someone else's save is never overwritten.
  const [version, setVersion] = useState(stored.version);

  const change = (patch: Partial<NoteTypeDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setStatus("");
  };
  const preview = useMemo(() => noteTypeOf(draft, stored.kind), [draft, stored.kind]);
  const sample = useMemo(() => previewFields(draft, sampleNote), [draft, sampleNote]);

  /** Templates follow a field renamed or removed, as in Anki; their editors show the new text. */
  const fieldChanged = (fields: NoteTypeDraft["fields"], from: string, to: string | null) => {
    const templates = followFieldName({ ...draft, fields }, from, to);
    change({ fields, templates });
    if (templates !== draft.templates) setRevision((n) => n + 1);
  };

  const save = (consent: { deleteCards?: boolean; discardText?: boolean } = {}) => {
    if (readOnly || update.isPending) return;
    const next = noteTypeOf(draft, stored.kind);
    setStatus("");
    setDoomed(null);
    setLostText(null);
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
      { noteTypeId: stored.id, version, patch, ...consent, ...mapsOf(draft, stored) },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setErrors(noErrors);
          setStale(false);
          setDraft(draftOf(saved));
          setRevision((n) => n + 1);
          setStatus(`Note type saved (version ${saved.version}).`);
        },
        onError: (error) => {
          setStale(errorCode(error) === "note-type/conflict");
          const { cards, schedules, field, notes } = inUse(error);
          if (typeof cards === "number") {
            setErrors(noErrors);
            setDoomed({ cards, schedules: typeof schedules === "number" ? schedules : 0 });
          } else if (typeof field === "string" && typeof notes === "number") {
            setErrors(noErrors);
            setLostText({ field, notes });
          } else {
            setErrors(refusal(error, draft));
          }
          // A second refusal after one was agreed to keeps that agreement.
          if (consent.deleteCards || consent.discardText) setConsent(consent);
        },
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConsent({});
    save();
  };
  // The form again from the type as stored now (the list reloads after a refused stale save).
  const reload = () => {
    setDraft(draftOf(stored));
    setVersion(stored.version);
    setErrors(noErrors);
    setStale(false);
    setDoomed(null);
    setLostText(null);
    setRevision((n) => n + 1);
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
            {lostText ? (
              <div className="notice">
                <p>
                  {lostText.notes === 1 ? "1 note loses" : `${lostText.notes} notes lose`} the text of its{" "}
                  {lostText.field} field, which this change removes.
                </p>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => save({ ...consent, discardText: true })}
                  disabled={update.isPending}
                >
                  Save and discard the text of {lostText.field}
                </button>
              </div>
            ) : null}
            {doomed ? (
              <div className="notice">
                <p>
                  {count(doomed.cards, "card", "cards")} would no longer be made by these templates. Saving anyway
                  deletes {doomed.cards === 1 ? "it" : "them"}
                  {doomed.schedules > 0
                    ? `, and ${count(doomed.schedules, "study schedule", "study schedules")} with ${doomed.cards === 1 ? "it" : "them"}`
                    : ""}
                  .
                </p>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => save({ ...consent, deleteCards: true })}
                  disabled={update.isPending}
                >
                  Save and delete {count(doomed.cards, "card", "cards")}
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
              readOnly={readOnly}
              noteCount={noteCount}
              errors={errors}
              onMove={(fields) => change({ fields })}
              onFieldsChange={fieldChanged}
            />
            <TemplateList
              draft={draft}
              kind={stored.kind}
              readOnly={readOnly}
              errors={errors}
              revision={revision}
              onChange={(templates) => change({ templates })}
            />
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
            {readOnly ? null : (
              <button
                type="button"
                className="button danger-outline"
                disabled={noteCount !== 0}
                aria-describedby={noteCount ? deleteHintId : undefined}
                onClick={() => setConfirmDelete(true)}
              >
                Delete note type
              </button>
            )}
            {!readOnly && noteCount ? (
              <span id={deleteHintId} className="settings-muted note-type-delete-hint">
                {count(noteCount, "note uses", "notes use")} it, so it stays.
              </span>
            ) : null}
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
      {confirmDelete ? (
        <ConfirmDialog
          title={`Delete ${stored.name}?`}
          confirmLabel="Delete note type"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() => remove.mutate({ deckId: stored.deck_id, noteTypeId: stored.id }, { onSuccess: onClose })}
        >
          <p>No note uses {stored.name}. Deleting it cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </Dialog>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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
  readOnly,
  noteCount,
  errors,
  onMove,
  onFieldsChange,
}: {
  draft: NoteTypeDraft;
  readOnly: boolean;
  noteCount: number | undefined;
  errors: FormErrors;
  /** Fields typed into or moved: the templates stay as they are. */
  onMove: (fields: NoteTypeDraft["fields"]) => void;
  /** A field renamed (once its input is left) or removed: its references in the templates follow. */
  onFieldsChange: (fields: NoteTypeDraft["fields"], from: string, to: string | null) => void;
}) {
  const [adding, setAdding] = useState("");
  // A field's name when its input was entered, to rename its references from when it is left.
  const named = useRef<string | null>(null);
  const addId = useId();
  const hintId = useId();
  const fields = draft.fields;
  const add = () => {
    const name = adding.trim();
    if (name === "") return;
    onMove([...fields, addedField(name)]);
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
              ? `${noteCount === 1 ? "1 note uses" : `${noteCount} notes use`} this type: a renamed or moved field keeps its text in each of them, and the templates follow a new name. A new field starts empty; removing a field that holds text asks first.`
              : "No note uses this type yet: add, rename, move or remove fields freely; the templates follow a new name."}
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
              readOnly={readOnly}
              error={errors.fields[field.key]}
              onChange={(name) => onMove(replaced(fields, index, { ...field, name }))}
              onFocus={() => {
                named.current = field.name.trim();
              }}
              onBlur={() => {
                const from = named.current;
                named.current = null;
                if (from !== null && from !== field.name.trim()) onFieldsChange(fields, from, field.name);
              }}
            />
            {readOnly ? null : (
              <span className="note-type-field-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${field.name || `field ${index + 1}`} up`}
                  disabled={index === 0}
                  onClick={() => onMove(moved(fields, index, index - 1))}
                >
                  <ArrowUp aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${field.name || `field ${index + 1}`} down`}
                  disabled={index === fields.length - 1}
                  onClick={() => onMove(moved(fields, index, index + 1))}
                >
                  <ArrowDown aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${field.name || `field ${index + 1}`}`}
                  disabled={fields.length === 1}
                  onClick={() =>
                    onFieldsChange(
                      fields.filter((_, at) => at !== index),
                      field.name.trim(),
                      null,
                    )
                  }
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

/**
 * The card templates, as Anki's Cards dialog: each named, with its front and
 * back; a standard type's may be copied into a new one, moved (its cards move
 * with it) and removed (its cards go, after asking). A cloze type has one.
 */
function TemplateList({
  draft,
  kind,
  readOnly,
  errors,
  revision,
  onChange,
}: {
  draft: NoteTypeDraft;
  kind: NoteType["kind"];
  readOnly: boolean;
  errors: FormErrors;
  /** Changes when the templates were rewritten from outside their editors. */
  revision: number;
  onChange: (templates: NoteTypeDraft["templates"]) => void;
}) {
  const templates = draft.templates;
  const editable = !readOnly && kind === "standard";
  return (
    <>
      {templates.map((template, index) => {
        const label = template.name || `Card ${index + 1}`;
        return (
          <fieldset key={template.key} className="note-type-template">
            <legend>
              {kind === "cloze" ? "Cloze template" : `Card ${index + 1}`}: {template.name}
            </legend>
            {editable ? (
              <span className="note-type-field-actions note-type-template-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move card template ${label} up`}
                  disabled={index === 0}
                  onClick={() => onChange(moved(templates, index, index - 1))}
                >
                  <ArrowUp aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move card template ${label} down`}
                  disabled={index === templates.length - 1}
                  onClick={() => onChange(moved(templates, index, index + 1))}
                >
                  <ArrowDown aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Copy card template ${label} into a new one`}
                  disabled={templates.length >= 100}
                  onClick={() => onChange([...templates, addedTemplate(template, templates)])}
                >
                  <Copy aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove card template ${label}`}
                  disabled={templates.length === 1}
                  onClick={() => onChange(templates.filter((_, at) => at !== index))}
                >
                  <Trash2 aria-hidden="true" />
                </button>
              </span>
            ) : null}
            <TextInput
              name={`template-${index}-name`}
              label={`Card ${index + 1} name`}
              value={template.name}
              readOnly={readOnly}
              error={errors.fields[`template-${index}-name`]}
              onChange={(name) => onChange(replaced(templates, index, { ...template, name }))}
            />
            {(["front", "back"] as const).map((side) => (
              <CodeInput
                // A new editor when the text changed from outside it: it holds its own text while typed into.
                key={`${side}-${revision}`}
                html
                name={`template-${index}-${side}`}
                label={`${label} ${side} template`}
                value={template[side]}
                readOnly={readOnly}
                error={errors.fields[`template-${index}-${side}`]}
                onChange={(text) => onChange(replaced(templates, index, { ...template, [side]: text }))}
              />
            ))}
          </fieldset>
        );
      })}
    </>
  );
}

interface InputProps {
  name: string;
  label: string;
  value: string;
  readOnly: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
  onFocus?: () => void;
  onBlur?: () => void;
}

function TextInput({ name, label, value, readOnly, error, onChange, onFocus, onBlur }: InputProps) {
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
        onFocus={onFocus}
        onBlur={onBlur}
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
          <HtmlView
            initialText={value}
            labelledBy={`${id}-label`}
            describedBy={error ? errorId : ""}
            name={name}
            invalid={Boolean(error)}
            autoFocus={false}
            onChange={onChange}
          />
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

/** What a refused save says: Anki's rules by path beside what they are about, anything else on top. */
function refusal(error: unknown, draft: NoteTypeDraft): FormErrors {
  const messages = Object.entries(fieldErrors(error));
  return messages.length > 0
    ? placedErrors(messages, draft)
    : { fields: {}, summary: [{ message: errorMessage(error) }] };
}

type InUse = { cards?: unknown; schedules?: unknown; field?: unknown; notes?: unknown };

/** The detail of a `note-type/in-use` refusal: the cards (and schedules) a change would delete, or a field that holds text. */
function inUse(error: unknown): InUse {
  if (errorCode(error) !== "note-type/in-use") return {};
  const detail = (error as { detail?: unknown }).detail;
  return detail && typeof detail === "object" ? (detail as InUse) : {};
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
