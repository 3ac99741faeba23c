/** A new preset made from the deck's options, a preset renamed, and a preset deleted after asking. */
import type { DeckPreset, PresetOptions } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { NameDialog } from "../../forms/name-dialog.js";
import { useEngramMutations } from "../../session/mutations.js";
import { decksText } from "./preset-bar.js";

// The SDK names the name field at fault, and any option it refuses.
const fields = ["name", "new_per_day", "reviews_per_day", "leech_threshold", "leech_action"] as const;

/** Makes a preset of the options as the form holds them, and has the deck use it. */
export function NewPresetDialog({
  deckId,
  options,
  onCreated,
  onClose,
}: {
  deckId: string;
  options: () => PresetOptions;
  onCreated: (preset: DeckPreset) => void;
  onClose: () => void;
}) {
  const mutations = useEngramMutations();
  const create = useMutation(mutations.presets.create());
  const setPreset = useMutation(mutations.decks.setPreset());
  return (
    <NameDialog
      title="New preset"
      description="It starts with this deck's options as the form shows them, and this deck uses it."
      label="Preset name"
      errorFields={fields}
      submitLabel="Create preset"
      pendingLabel="Creating…"
      pending={create.isPending || setPreset.isPending}
      error={create.error ?? setPreset.error}
      onClose={onClose}
      onSubmit={(name) => {
        create
          .mutateAsync({ name, ...options() })
          .then((preset) => setPreset.mutateAsync({ deckId, presetId: preset.id }).then(() => onCreated(preset)))
          .catch(() => {});
      }}
    />
  );
}

export function RenamePresetDialog({
  preset,
  onRenamed,
  onClose,
}: {
  preset: DeckPreset;
  onRenamed: (preset: DeckPreset) => void;
  onClose: () => void;
}) {
  const update = useMutation(useEngramMutations().presets.update());
  return (
    <NameDialog
      title={`Rename “${preset.name}”`}
      label="Preset name"
      defaultValue={preset.name}
      errorFields={fields}
      submitLabel="Rename preset"
      pendingLabel="Renaming…"
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onSubmit={(name) => {
        update.mutateAsync({ presetId: preset.id, patch: { name } }).then(onRenamed, () => {});
      }}
    />
  );
}

export function DeletePresetDialog({
  preset,
  onDeleted,
  onClose,
}: {
  preset: DeckPreset;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const remove = useMutation(useEngramMutations().presets.remove());
  return (
    <ConfirmDialog
      title={`Delete the preset “${preset.name}”?`}
      confirmLabel="Delete preset"
      pendingLabel="Deleting…"
      cancelLabel="Keep preset"
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => {
        remove.mutateAsync(preset.id).then(onDeleted, () => {});
      }}
    >
      <p>
        {preset.deck_count === 0
          ? "No deck uses it."
          : preset.deck_count === 1
            ? "The deck using it keeps its current options, as its own."
            : `The ${decksText(preset.deck_count)} using it keep their current options, as their own.`}
      </p>
    </ConfirmDialog>
  );
}
