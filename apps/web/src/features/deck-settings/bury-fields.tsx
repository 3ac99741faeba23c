/**
 * The deck's burying settings: which cards wait for the next day once a
 * sibling (another card of the same note, such as the reverse of a card or
 * another gap of a cloze) is studied today. Inputs of the owner's settings
 * form; read-only for everyone else.
 */
import type { Deck } from "@engram/sdk";

export const buryFields = ["bury_new", "bury_reviews", "bury_interday_learning"] as const;
type BuryField = (typeof buryFields)[number];

const options: { name: BuryField; label: string; hint: string }[] = [
  {
    name: "bury_new",
    label: "Bury new siblings",
    hint: "A new card waits for the next day when another card of its note is studied today.",
  },
  {
    name: "bury_reviews",
    label: "Bury review siblings",
    hint: "A review waits for the next day when another card of its note is studied today.",
  },
  {
    name: "bury_interday_learning",
    label: "Bury interday learning siblings",
    hint: "The same for cards learning on steps of a day or more. Steps shorter than a day are never buried.",
  },
];

/** The form's values: a checkbox sends "on" when ticked and nothing otherwise. */
export function buryPatch(form: FormData): Record<BuryField, boolean> {
  return {
    bury_new: form.get("bury_new") === "on",
    bury_reviews: form.get("bury_reviews") === "on",
    bury_interday_learning: form.get("bury_interday_learning") === "on",
  };
}

export function BuryFields({ deck, readOnly = false }: { deck: Pick<Deck, BuryField>; readOnly?: boolean }) {
  return (
    <fieldset className="settings-limits bury-fields" disabled={readOnly}>
      <legend>Burying</legend>
      {options.map((option) => (
        <div key={option.name} className="settings-check">
          <input
            type="checkbox"
            id={`deck-${option.name}`}
            name={option.name}
            data-field={option.name}
            defaultChecked={deck[option.name]}
            aria-describedby={`deck-${option.name}-hint`}
          />
          <div>
            <label htmlFor={`deck-${option.name}`}>{option.label}</label>
            <p id={`deck-${option.name}-hint`} className="field-hint">
              {option.hint}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  );
}
