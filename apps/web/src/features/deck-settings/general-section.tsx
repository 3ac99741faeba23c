/** Name, description, daily limits and the public switch: a form for the owner, a summary for everyone else. */
import type { MyDeck, SuggestionsFrom } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Globe, Lock } from "lucide-react";
import { useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextAreaField, TextField } from "../../forms/text-field.js";
import { errorMessage } from "../../lib/error-messages.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { BuryFields, buryFields } from "./bury-fields.js";
import { LeechFields, leechFields } from "./leech-fields.js";
import { useNamePrompt } from "./name-prompt.js";
import { PresetBar, type PresetStep } from "./preset-bar.js";
import { DeletePresetDialog, NewPresetDialog, RenamePresetDialog } from "./preset-dialogs.js";
import { presetOptionsOf } from "./preset-options.js";
import { useProfileDefaults } from "./use-deck-settings.js";

const fields = [
  "name",
  "description",
  "new_per_day",
  "reviews_per_day",
  "is_public",
  "suggestions_from",
  ...leechFields,
  ...buryFields,
] as const;
const publicMeans =
  "Anyone can find it in Explore and copy it into their own decks. Members' study progress stays private.";
const privateMeans = "Only its members can see it.";

const suggestionsFromOf = (form: FormData): SuggestionsFrom => {
  const value = form.get("suggestions_from");
  return value === "public" || value === "nobody" ? value : "members";
};

export function GeneralSection({ deck }: { deck: MyDeck }) {
  const profile = useProfileDefaults();
  const mine = { new: profile.data?.new_per_day, reviews: profile.data?.reviews_per_day };
  return (
    <section className="settings-section" aria-labelledby="general-heading">
      <h2 id="general-heading">General</h2>
      {deck.role === "owner" ? (
        <GeneralForm deck={deck} mine={mine} />
      ) : (
        <dl className="settings-facts">
          <dt>Name</dt>
          <dd>{deck.name}</dd>
          <dt>Description</dt>
          <dd>{deck.description || <span className="settings-muted">No description</span>}</dd>
          <dt>New cards per day</dt>
          <dd>{limitText(deck.new_per_day, mine.new)}</dd>
          <dt>Reviews per day</dt>
          <dd>{limitText(deck.reviews_per_day, mine.reviews)}</dd>
          <dt>Visibility</dt>
          <dd>{deck.is_public ? `Public. ${publicMeans}` : `Private. ${privateMeans}`}</dd>
        </dl>
      )}
      {deck.role === "owner" ? null : <LeechFields deck={deck} readOnly />}
      {deck.role === "owner" ? null : <BuryFields deck={deck} readOnly />}
    </section>
  );
}

function limitText(deckLimit: number | null, yours: number | undefined): string {
  if (deckLimit !== null) return `${deckLimit} (this deck's limit)`;
  return yours === undefined ? "Your own daily limit" : `${yours} (your own daily limit)`;
}

function GeneralForm({ deck, mine }: { deck: MyDeck; mine: { new: number | undefined; reviews: number | undefined } }) {
  const formRef = useRef<HTMLFormElement>(null);
  const mutations = useEngramMutations();
  const update = useMutation(mutations.decks.update());
  const updatePreset = useMutation(mutations.presets.update());
  const presets = useQuery(useEngramQueries().presets.list());
  const preset = presets.data?.find((candidate) => candidate.id === deck.preset_id) ?? null;
  const [status, setStatus] = useState("");
  const [step, setStep] = useState<PresetStep | null>(null);
  const namePrompt = useNamePrompt("Save and publish");
  const errors = formErrors(update.error ?? updatePreset.error, fields);
  const defaultHint = (yours: number | undefined) =>
    `Leave empty to use each member's own limit${yours === undefined ? "" : ` (yours is ${yours})`}. 0 to 9,999.`;

  return (
    <>
      <form
        ref={formRef}
        // A save by anyone (here or elsewhere) starts the form again from what is stored.
        key={deck.updated_at}
        noValidate
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setStatus("");
          updatePreset.reset();
          const general = {
            name: textOf(form, "name"),
            description: textOf(form, "description"),
            is_public: form.get("is_public") === "on",
            suggestions_from: suggestionsFromOf(form),
          };
          const options = presetOptionsOf(form);
          // Whether the options go to a preset is the deck's to say, not the preset list's (it may still be loading).
          const presetId = deck.preset_id;
          const save = () => {
            if (!presetId) {
              update.mutate(
                { deckId: deck.id, patch: { ...general, ...options } },
                { onSuccess: () => setStatus("Settings saved.") },
              );
              return;
            }
            // The study options are the preset's, so they go to it and reach every deck using it.
            update
              .mutateAsync({ deckId: deck.id, patch: general })
              .then(() => updatePreset.mutateAsync({ presetId, patch: options }))
              .then(
                () =>
                  setStatus(
                    preset
                      ? `Settings saved, for every deck using “${preset.name}”.`
                      : "Settings saved, for every deck using its preset.",
                  ),
                () => {},
              );
          };
          // Going public shows the owner's name to everyone: they choose it first.
          if (general.is_public && !deck.is_public) namePrompt.ask(save);
          else save();
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        <TextField
          name="name"
          label="Deck name"
          defaultValue={deck.name}
          autoComplete="off"
          required
          error={errors.fields.name}
        />
        <TextAreaField
          name="description"
          label="Description"
          hint="What the deck covers, for its members and, if it is public, for Explore. Up to 2,000 characters."
          defaultValue={deck.description}
          rows={3}
          error={errors.fields.description}
        />
        {presets.data ? (
          <PresetBar deck={deck} presets={presets.data} onStep={setStep} onStatus={setStatus} />
        ) : presets.isError ? (
          <p className="field-error">{errorMessage(presets.error)}</p>
        ) : null}
        <fieldset className="settings-limits">
          <legend>Daily limits</legend>
          <TextField
            name="new_per_day"
            label="New cards per day"
            type="number"
            inputMode="numeric"
            min={0}
            max={9999}
            step={1}
            defaultValue={deck.new_per_day ?? ""}
            placeholder={mine.new === undefined ? "" : String(mine.new)}
            hint={defaultHint(mine.new)}
            error={errors.fields.new_per_day}
          />
          <TextField
            name="reviews_per_day"
            label="Reviews per day"
            type="number"
            inputMode="numeric"
            min={0}
            max={9999}
            step={1}
            defaultValue={deck.reviews_per_day ?? ""}
            placeholder={mine.reviews === undefined ? "" : String(mine.reviews)}
            hint={defaultHint(mine.reviews)}
            error={errors.fields.reviews_per_day}
          />
        </fieldset>
        <LeechFields deck={deck} errors={errors.fields} />
        <BuryFields deck={deck} />
        <div className="settings-check">
          <input
            type="checkbox"
            id="deck-public"
            name="is_public"
            data-field="is_public"
            defaultChecked={deck.is_public}
            aria-describedby="deck-public-hint"
          />
          <div>
            <label htmlFor="deck-public">
              {deck.is_public ? <Globe aria-hidden="true" /> : <Lock aria-hidden="true" />} Public deck
            </label>
            <p id="deck-public-hint" className="field-hint">
              {publicMeans} Off: {privateMeans.toLowerCase()}
            </p>
          </div>
        </div>
        <div className="field">
          <label htmlFor="deck-suggestions-from">Who may suggest changes</label>
          <select
            id="deck-suggestions-from"
            name="suggestions_from"
            data-field="suggestions_from"
            defaultValue={deck.suggestions_from}
            aria-describedby="deck-suggestions-from-hint"
          >
            <option value="members">Members</option>
            <option value="public">Anyone who can read it</option>
            <option value="nobody">Nobody</option>
          </select>
          <p id="deck-suggestions-from-hint" className="field-hint">
            Viewers (and, for a public deck, anyone signed in) propose edits, new notes and deletions with a reason; you
            and the editors accept or reject them. Switching to nobody closes those waiting.
          </p>
        </div>
        <div className="form-actions">
          <SubmitButton pending={update.isPending || updatePreset.isPending} pendingLabel="Saving…">
            Save changes
          </SubmitButton>
        </div>
      </form>
      <p role="status" className="settings-status">
        {status}
      </p>
      {/* Beside the form, not in it: a dialog's own form must not submit this one. */}
      {namePrompt.dialog}
      {step === "new" ? (
        <NewPresetDialog
          deckId={deck.id}
          options={() => presetOptionsOf(new FormData(formRef.current ?? undefined))}
          onClose={() => setStep(null)}
          onCreated={(created) => {
            setStep(null);
            setStatus(`This deck now uses the new preset “${created.name}”.`);
          }}
        />
      ) : null}
      {step === "rename" && preset ? (
        <RenamePresetDialog
          preset={preset}
          onClose={() => setStep(null)}
          onRenamed={(renamed) => {
            setStep(null);
            setStatus(`The preset is now called “${renamed.name}”.`);
          }}
        />
      ) : null}
      {step === "delete" && preset ? (
        <DeletePresetDialog
          preset={preset}
          onClose={() => setStep(null)}
          onDeleted={() => {
            setStep(null);
            setStatus(`The preset “${preset.name}” was deleted. This deck keeps its options.`);
          }}
        />
      ) : null}
    </>
  );
}
