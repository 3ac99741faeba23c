/**
 * Find and replace over the selected notes or every note the search matches,
 * as Anki's browser has it (docs/product.md §2): what would change is counted
 * as the user types, and the change is made all or none.
 */
import { EngramError, type FindReplacePreview, maxBulkNotes, previewReplace, replaceableFieldNames } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { SubmitButton } from "../forms/submit-button.js";
import { errorMessage } from "../lib/error-messages.js";
import { useEngramQueries } from "../session/factories.js";
import { useEngramMutations } from "../session/mutations.js";
import { Dialog } from "../ui/dialog.js";
import "./find-replace.css";

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const fieldLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replaceAll("_", " ");

export interface FindReplaceDialogProps {
  deckId: string;
  /** The selected notes' ids. */
  selected: string[];
  /** How many notes the browser's search matches. */
  total: number;
  /** Selects every note the search matches (up to the bulk limit), for "Selected notes only" turned off. */
  onSelectAll: () => void;
  selectingAll: boolean;
  onClose: () => void;
  /** After a replacement, with a sentence saying what changed. */
  onDone: (message: string) => void;
}

export function FindReplaceDialog({
  deckId,
  selected,
  total,
  onSelectAll,
  selectingAll,
  onClose,
  onDone,
}: FindReplaceDialogProps) {
  const id = useId();
  const queries = useEngramQueries();
  const mutations = useEngramMutations();
  const [find, setFind] = useState("");
  const [replace, setReplace] = useState("");
  const [field, setField] = useState("");
  const [regex, setRegex] = useState(false);
  const [matchCase, setMatchCase] = useState(false);
  const [selectedOnly, setSelectedOnly] = useState(true);

  // The selection the dialog opened with: "Selected notes only" goes back to it after every matching note was selected.
  const [opened] = useState(selected);
  const tooMany = !selectedOnly && total > maxBulkNotes;
  const allSelected = selected.length >= total;
  // Asked once each time the box is cleared, so a failed selection is not retried in a loop.
  const [askedForAll, setAskedForAll] = useState(false);
  useEffect(() => {
    if (selectedOnly || tooMany || allSelected || askedForAll) return;
    setAskedForAll(true);
    onSelectAll();
  }, [selectedOnly, tooMany, allSelected, askedForAll, onSelectAll]);
  const noteIds = selectedOnly ? opened : allSelected && !tooMany ? selected : [];
  const notes = useQuery({ ...queries.notes.findReplace(deckId, { noteIds }), enabled: noteIds.length > 0 });
  const replaceNotes = useMutation(mutations.notes.replace());

  const fieldNames = useMemo(() => replaceableFieldNames(notes.data ?? []), [notes.data]);
  const outcome = useMemo((): { preview: FindReplacePreview } | { problem: string } | null => {
    if (find === "" || !notes.data) return null;
    try {
      return { preview: previewReplace(notes.data, { find, replace, regex, matchCase, field: field || null }) };
    } catch (error) {
      return { problem: errorMessage(error) };
    }
  }, [notes.data, find, replace, regex, matchCase, field]);
  const preview = outcome && "preview" in outcome ? outcome.preview : null;
  const problem = outcome && "problem" in outcome ? outcome.problem : null;
  const stale = replaceNotes.error instanceof EngramError && replaceNotes.error.code === "note/conflict";

  return (
    <Dialog title="Find and replace" onClose={onClose} size="wide" className="find-replace">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!preview || preview.noteCount === 0) return;
          replaceNotes.mutate(
            { deckId, preview },
            { onSuccess: (count) => onDone(`Replaced in ${plural(count, "note")}.`) },
          );
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-find`}>Find</label>
          <input
            id={`${id}-find`}
            value={find}
            onChange={(event) => setFind(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-find-problem` : undefined}
            autoFocus
          />
          {problem ? (
            <p id={`${id}-find-problem`} className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-replace`}>Replace with</label>
          <input
            id={`${id}-replace`}
            value={replace}
            onChange={(event) => setReplace(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-replace-hint`}
          />
          <p id={`${id}-replace-hint`} className="field-hint">
            With a regular expression, $1 puts back what its first group found.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-field`}>In</label>
          <select id={`${id}-field`} value={field} onChange={(event) => setField(event.target.value)}>
            <option value="">All fields</option>
            {fieldNames.map((name) => (
              <option key={name} value={name}>
                {fieldLabel(name)}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="find-replace-options">
          <legend>Options</legend>
          <label>
            <input type="checkbox" checked={regex} onChange={(event) => setRegex(event.target.checked)} /> Treat input
            as regular expression
          </label>
          <label>
            <input type="checkbox" checked={matchCase} onChange={(event) => setMatchCase(event.target.checked)} /> Match
            case
          </label>
          <label>
            <input
              type="checkbox"
              checked={selectedOnly}
              onChange={(event) => {
                setSelectedOnly(event.target.checked);
                setAskedForAll(false);
              }}
            />{" "}
            Selected notes only ({plural(opened.length, "note")}; otherwise every note the search matches)
          </label>
        </fieldset>
        <p className="find-replace-preview" role="status" aria-live="polite">
          {tooMany
            ? `The search matches ${total} notes; find and replace takes up to ${maxBulkNotes} at a time.`
            : notes.isError
              ? errorMessage(notes.error)
              : preview
                ? preview.noteCount === 0
                  ? `No match in ${plural(preview.searched, "note")}.`
                  : `Would change ${plural(preview.noteCount, "note")} of ${preview.searched} (${plural(preview.fieldCount, "field")}).`
                : notes.isFetching || selectingAll
                  ? "Loading the notes…"
                  : "Type what to find."}
        </p>
        {replaceNotes.isError ? (
          <p role="alert" className="field-error">
            {stale
              ? "Some of these notes were changed by others since they were loaded — nothing was replaced. They are loaded again: check the count and replace again."
              : errorMessage(replaceNotes.error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={replaceNotes.isPending} pendingLabel="Replacing…">
            {preview && preview.noteCount > 0 ? `Replace in ${plural(preview.noteCount, "note")}` : "Replace"}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
