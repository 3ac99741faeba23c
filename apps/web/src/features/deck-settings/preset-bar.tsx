/**
 * Which preset the deck's study options come from, above those options, as
 * Anki's options header: "This deck only" or one of the owner's presets, how
 * many decks share it, and the presets' own steps (new, rename, delete).
 */
import type { DeckPreset, MyDeck } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import "./preset-bar.css";

export type PresetStep = "new" | "rename" | "delete";

export const decksText = (count: number) => `${count} ${count === 1 ? "deck" : "decks"}`;

export function PresetBar({
  deck,
  presets,
  onStep,
  onStatus,
}: {
  deck: MyDeck;
  presets: DeckPreset[];
  onStep: (step: PresetStep) => void;
  onStatus: (status: string) => void;
}) {
  const id = useId();
  const setPreset = useMutation(useEngramMutations().decks.setPreset());
  const current = presets.find((preset) => preset.id === deck.preset_id) ?? null;
  // While the choice is saved the list shows it, not the deck's previous preset.
  const shown = setPreset.isPending ? (setPreset.variables.presetId ?? "") : (deck.preset_id ?? "");

  const choose = (presetId: string) => {
    const chosen = presets.find((preset) => preset.id === presetId) ?? null;
    onStatus("");
    // Awaited rather than per-call callbacks: the form around this bar starts again when the deck changes.
    setPreset.mutateAsync({ deckId: deck.id, presetId: chosen?.id ?? null }).then(
      () => onStatus(chosen ? `This deck now uses “${chosen.name}”.` : "This deck's options are now its own."),
      () => {},
    );
  };

  return (
    <div className="preset-bar">
      <div className="preset-choice">
        <label htmlFor={`${id}-preset`}>Preset</label>
        <select
          id={`${id}-preset`}
          value={shown}
          onChange={(event) => choose(event.target.value)}
          aria-describedby={`${id}-usage`}
          aria-busy={setPreset.isPending || undefined}
        >
          <option value="">This deck only</option>
          {presets.map((preset) => (
            <option key={preset.id} value={preset.id}>
              {preset.name}
            </option>
          ))}
        </select>
        <div className="preset-actions">
          <button type="button" className="button secondary" onClick={() => onStep("new")}>
            <Plus aria-hidden="true" /> New preset…
          </button>
          {current ? (
            <>
              <button type="button" className="button secondary" onClick={() => onStep("rename")}>
                <Pencil aria-hidden="true" /> Rename…
              </button>
              <button type="button" className="button secondary" onClick={() => onStep("delete")}>
                <Trash2 aria-hidden="true" /> Delete…
              </button>
            </>
          ) : null}
        </div>
      </div>
      <p id={`${id}-usage`} className="field-hint">
        {current
          ? `Used by ${decksText(current.deck_count)}. Saving changes the options below for every deck using “${current.name}”.`
          : "The options below are this deck's own. Make them a preset to share them with your other decks."}
      </p>
      {setPreset.error ? (
        <p className="field-error" role="alert">
          {errorMessage(setPreset.error)}
        </p>
      ) : null}
    </div>
  );
}
