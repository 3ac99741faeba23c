/** A new note type for the deck, as Anki's Manage Note Types › Add: a stock type or a copy of one of the deck's, named. */
import { builtInNoteTypes } from "@engram/core";
import type { DeckNoteType, StockNoteType } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { useRef } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { FieldFrame } from "../../forms/field-frame.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Dialog } from "../../ui/dialog.js";

const stock: StockNoteType[] = ["basic", "basic_reversed", "type_in", "cloze"];
const fields = ["name", "from"] as const;

export function NewNoteTypeDialog({
  deckId,
  types,
  onCreated,
  onClose,
}: {
  deckId: string;
  /** The deck's own note types, which may be copied. */
  types: DeckNoteType[];
  onCreated: (type: DeckNoteType) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const create = useMutation(useEngramMutations().noteTypes.create());
  const errors = formErrors(create.error, fields);
  return (
    <Dialog title="New note type" onClose={onClose}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          create.mutate(
            { deckId, from: textOf(form, "from"), name: textOf(form, "name").trim() },
            { onSuccess: onCreated },
          );
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <FieldFrame name="from" label="Start from" error={errors.fields.from}>
          {(control) => (
            <select {...control} defaultValue="basic">
              <optgroup label="Anki's note types">
                {stock.map((key) => (
                  <option key={key} value={key}>
                    {builtInNoteTypes[key].name}
                  </option>
                ))}
              </optgroup>
              {types.length > 0 ? (
                <optgroup label="A copy of this deck's">
                  {types.map((type) => (
                    <option key={type.id} value={type.id}>
                      Copy of {type.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          )}
        </FieldFrame>
        <TextField
          name="name"
          label="Name"
          autoComplete="off"
          required
          maxLength={100}
          hint="Unique within this deck."
          error={errors.fields.name}
        />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={create.isPending} pendingLabel="Adding…">
            Add note type
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
