/** How hard the scheduler works: desired retention, daily limits, and training it on the user's reviews. */
import { limits } from "@engram/core";
import type { Profile } from "@engram/sdk";
import { useState } from "react";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { onDemand } from "../../lib/preloadable.js";
import { OptimiseButton } from "../../optimiser/optimise-scheduler.js";
import { SavedStatus, SettingsSection } from "./settings-section.js";
import { useUpdateProfile } from "./use-settings.js";
import { describeWorkload } from "./workload.js";

const WorkloadChart = onDemand(
  () => import("./workload-chart.js").then((m) => m.default),
  () => <p className="workload-status">Simulating your next year…</p>,
);

const fields = ["desired_retention", "new_per_day", "reviews_per_day"] as const;

/** An empty field is NaN, which the SDK's rules refuse with their own message. */
const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

export function SchedulingSection({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const [retention, setRetention] = useState(profile.desired_retention.toFixed(2));
  const [saved, setSaved] = useState("");
  const errors = formErrors(update.error, fields);
  const value = numberOf(retention);
  const inRange = value >= limits.desiredRetentionMin && value <= limits.desiredRetentionMax;

  return (
    <SettingsSection
      id="scheduling"
      title="Scheduling"
      intro="How often cards come back, and how many you take on each day. Decks can set their own limits."
    >
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setSaved("");
          update.mutate(
            {
              desired_retention: numberOf(textOf(form, "desired_retention")),
              new_per_day: numberOf(textOf(form, "new_per_day")),
              reviews_per_day: numberOf(textOf(form, "reviews_per_day")),
            },
            { onSuccess: () => setSaved("Scheduling saved.") },
          );
        }}
      >
        <TextField
          name="desired_retention"
          label="Desired retention"
          type="number"
          inputMode="decimal"
          step="0.01"
          min={limits.desiredRetentionMin}
          max={limits.desiredRetentionMax}
          value={retention}
          onChange={(event) => setRetention(event.currentTarget.value)}
          hint="The share of cards you want to still remember when they come due, from 0.70 to 0.99."
          error={errors.fields.desired_retention}
        />
        <p className="workload">
          {inRange
            ? describeWorkload(value, profile.fsrs_params)
            : "Higher retention means more reviews a day; lower means fewer reviews and more forgotten cards."}
        </p>
        <WorkloadChart
          retention={inRange ? value : profile.desired_retention}
          onUseRetention={(recommended) => setRetention(recommended.toFixed(2))}
        />
        <div className="settings-pair">
          <TextField
            name="new_per_day"
            label="New cards a day"
            type="number"
            inputMode="numeric"
            min={0}
            max={limits.dailyLimitMax}
            defaultValue={profile.new_per_day}
            error={errors.fields.new_per_day}
          />
          <TextField
            name="reviews_per_day"
            label="Reviews a day"
            type="number"
            inputMode="numeric"
            min={0}
            max={limits.dailyLimitMax}
            defaultValue={profile.reviews_per_day}
            error={errors.fields.reviews_per_day}
          />
        </div>
        {update.error && errors.summary.every((item) => !item.field) ? (
          <p className="field-error" role="alert">
            {errors.summary[0]?.message}
          </p>
        ) : null}
        <div className="settings-actions">
          <SubmitButton pending={update.isPending} pendingLabel="Saving…">
            Save scheduling
          </SubmitButton>
          <SavedStatus message={saved} />
        </div>
      </form>
      <div className="settings-subsection">
        <h3>Your own scheduler</h3>
        <p className="settings-intro">
          {profile.fsrs_params
            ? "Your scheduler is trained on your reviews. Train it again now and then as your history grows."
            : "Engram uses FSRS's default settings until you train it on your own reviews (400 or more)."}
        </p>
        <OptimiseButton />
      </div>
    </SettingsSection>
  );
}
