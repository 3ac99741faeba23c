import { limits } from "@engram/core";
import type { MyDeck } from "@engram/sdk";
import { useId } from "react";
import { canKeepTree, type TargetChoice } from "./target-choice.js";

/** Where the notes go, and how notes from an earlier import of the same file are treated. */
export function ImportTarget({
  choice,
  onChange,
  decks,
  anki,
  deckNames = [],
  nameError,
}: {
  choice: TargetChoice;
  onChange: (choice: TargetChoice) => void;
  /** Decks the user may add notes to. */
  decks: MyDeck[];
  anki: boolean;
  /** The Anki decks the package's notes are in. */
  deckNames?: readonly string[];
  nameError: string | undefined;
}) {
  const id = useId();
  const set = (change: Partial<TargetChoice>) => onChange({ ...choice, ...change });
  return (
    <section className="import-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import into</h2>
      <fieldset className="import-choices">
        <legend className="visually-hidden">Deck</legend>
        <label className="import-check">
          <input type="radio" name="into" checked={choice.into === "new"} onChange={() => set({ into: "new" })} />A new
          deck
        </label>
        {choice.into === "new" ? (
          <div className="import-field import-indent">
            <label htmlFor={`${id}-name`}>New deck name</label>
            <input
              id={`${id}-name`}
              data-field="newDeckName"
              value={choice.newDeckName}
              maxLength={limits.deckName + 20}
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${id}-name-error` : undefined}
              onChange={(event) => set({ newDeckName: event.currentTarget.value })}
            />
            {nameError ? (
              <p id={`${id}-name-error`} className="field-error">
                {nameError}
              </p>
            ) : null}
          </div>
        ) : null}
        <label className="import-check">
          <input
            type="radio"
            name="into"
            checked={choice.into === "existing"}
            disabled={decks.length === 0}
            onChange={() => set({ into: "existing", deckId: choice.deckId || (decks[0]?.id ?? "") })}
          />
          A deck I already have
        </label>
        {choice.into === "existing" ? (
          <div className="import-field import-indent">
            <label htmlFor={`${id}-deck`}>Deck</label>
            <select
              id={`${id}-deck`}
              value={choice.deckId}
              onChange={(event) => set({ deckId: event.currentTarget.value })}
            >
              {decks.map((deck) => (
                <option key={deck.id} value={deck.id}>
                  {deck.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </fieldset>
      {deckNames.length > 1 ? (
        <fieldset className="import-choices" aria-describedby={`${id}-tree-hint`}>
          <legend>The package's {deckNames.length} decks</legend>
          <p id={`${id}-tree-hint`} className="field-hint">
            {canKeepTree(choice, decks, deckNames)
              ? "Anki keeps decks in a tree; studying a deck studies its subdecks."
              : "Only the owner of a deck can add subdecks to it, so the notes go into this deck."}
          </p>
          <label className="import-check">
            <input
              type="radio"
              name="deck-tree"
              checked={choice.deckTree && canKeepTree(choice, decks, deckNames)}
              disabled={!canKeepTree(choice, decks, deckNames)}
              onChange={() => set({ deckTree: true })}
            />
            Keep the package's deck tree
          </label>
          <label className="import-check">
            <input
              type="radio"
              name="deck-tree"
              checked={!choice.deckTree || !canKeepTree(choice, decks, deckNames)}
              onChange={() => set({ deckTree: false })}
            />
            One deck, with each note's Anki deck as a tag
          </label>
        </fieldset>
      ) : null}
      <fieldset className="import-choices">
        <legend>Notes already imported</legend>
        <p className="field-hint">Notes this file brought into the deck before, in an earlier import.</p>
        <label className="import-check">
          <input
            type="radio"
            name="existing"
            checked={choice.existing === "skip"}
            onChange={() => set({ existing: "skip" })}
          />
          Skip them, keep my copies
        </label>
        <label className="import-check">
          <input
            type="radio"
            name="existing"
            checked={choice.existing === "update"}
            onChange={() => set({ existing: "update" })}
          />
          Update them from this file
        </label>
      </fieldset>
      {anki ? (
        <>
          <label className="import-check">
            <input
              type="checkbox"
              checked={choice.includeSchedule}
              aria-describedby={`${id}-schedule-hint`}
              onChange={(event) => set({ includeSchedule: event.currentTarget.checked })}
            />
            Include my review history and schedule
          </label>
          <p id={`${id}-schedule-hint`} className="field-hint import-indent-hint">
            Cards keep the due dates Anki gave them, and your past answers count in your statistics and the optimiser.
            Leave it off to start every card as new.
          </p>
          <label className="import-check">
            <input
              type="checkbox"
              checked={choice.includePresets}
              aria-describedby={`${id}-presets-hint`}
              onChange={(event) => set({ includePresets: event.currentTarget.checked })}
            />
            Import deck presets
          </label>
          <p id={`${id}-presets-hint`} className="field-hint import-indent-hint">
            The decks this import makes take the package's daily limits, leech rule and burying as presets. Leave it off
            to study them with your own limits.
          </p>
        </>
      ) : null}
    </section>
  );
}
