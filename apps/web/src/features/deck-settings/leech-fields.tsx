/**
 * The deck's leech settings: after how many lapses a card its user keeps
 * forgetting counts as a leech, and whether it is then suspended or only
 * tagged. Inputs of the owner's settings form; read-only for everyone else.
 */
import { limits } from "@engram/core";
import type { Deck, LeechAction } from "@engram/sdk";
import { useId } from "react";
import { textOf } from "../../forms/form-errors.js";
import { TextField } from "../../forms/text-field.js";

export const leechFields = ["leech_threshold", "leech_action"] as const;

const actions: { value: LeechAction; label: string }[] = [
  { value: "suspend", label: "Suspend the card" },
  { value: "tag_only", label: "Tag only" },
];

/** The form's values, as typed: the SDK checks them and names the field at fault. */
export function leechPatch(form: FormData): { leech_threshold: number; leech_action: LeechAction } {
  const threshold = textOf(form, "leech_threshold").trim();
  return {
    leech_threshold: threshold === "" ? Number.NaN : Number(threshold),
    leech_action: textOf(form, "leech_action") === "tag_only" ? "tag_only" : "suspend",
  };
}

export function LeechFields({
  deck,
  readOnly = false,
  errors = {},
}: {
  deck: Pick<Deck, "leech_threshold" | "leech_action">;
  readOnly?: boolean;
  errors?: Partial<Record<(typeof leechFields)[number], string>>;
}) {
  const id = useId();
  const actionError = errors.leech_action;
  return (
    <fieldset className="settings-limits leech-fields" disabled={readOnly}>
      <legend>Leeches</legend>
      <p className="field-hint leech-explained">
        A card you keep forgetting is a leech: it is tagged “leech” for you alone, and the warning comes again every
        half threshold of lapses after the first.
      </p>
      <TextField
        name="leech_threshold"
        label="Leech threshold"
        type="number"
        inputMode="numeric"
        min={limits.leechThresholdMin}
        max={limits.leechThresholdMax}
        step={1}
        defaultValue={deck.leech_threshold}
        hint={`Times forgotten before a card is a leech. ${limits.leechThresholdMin} to ${limits.leechThresholdMax}.`}
        error={errors.leech_threshold}
      />
      <fieldset
        className="leech-action"
        aria-invalid={actionError ? true : undefined}
        aria-describedby={actionError ? `${id}-action-error` : undefined}
      >
        <legend>What happens to a leech</legend>
        {actions.map((action, index) => (
          <label key={action.value} className="leech-action-option">
            <input
              type="radio"
              name="leech_action"
              value={action.value}
              defaultChecked={deck.leech_action === action.value}
              {...(index === 0 ? { "data-field": "leech_action" } : {})}
            />
            {action.label}
          </label>
        ))}
        {actionError ? (
          <p id={`${id}-action-error`} className="field-error">
            {actionError}
          </p>
        ) : null}
      </fieldset>
    </fieldset>
  );
}
