/**
 * The note type, chosen when adding: the built-in kinds, then the deck's own
 * note types. Radio buttons, so arrow keys move between them.
 */
import { useId } from "react";
import { builtInKinds, type KindValue, kindLabels } from "./note-draft.js";

export function KindChoice({
  value,
  noteTypes,
  onChange,
}: {
  value: KindValue;
  noteTypes: readonly { id: string; name: string }[];
  onChange: (value: KindValue) => void;
}) {
  const name = useId();
  const options: { value: KindValue; label: string }[] = [
    ...builtInKinds.map((kind) => ({ value: kind, label: kindLabels[kind] })),
    ...noteTypes.map((type) => ({ value: `type:${type.id}` as const, label: type.name })),
  ];
  return (
    <fieldset className="kind-choice">
      <legend>Note type</legend>
      <div className="kind-options">
        {options.map((option) => (
          <label key={option.value} className="kind-option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
