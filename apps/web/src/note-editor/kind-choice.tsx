/** The note type, chosen when adding: radio buttons, so arrow keys move between them. */
import { type NoteKind, noteKinds } from "@engram/core";
import { useId } from "react";
import { kindLabels } from "./note-draft.js";

export function KindChoice({ kind, onChange }: { kind: NoteKind; onChange: (kind: NoteKind) => void }) {
  const name = useId();
  return (
    <fieldset className="kind-choice">
      <legend>Note type</legend>
      <div className="kind-options">
        {noteKinds.map((option) => (
          <label key={option} className="kind-option">
            <input
              type="radio"
              name={name}
              value={option}
              checked={kind === option}
              onChange={() => onChange(option)}
            />
            <span>{kindLabels[option]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
