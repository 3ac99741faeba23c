/**
 * When the user's day begins (docs/product.md §4): "today" runs from the day-start
 * hour in their time zone to the same hour the next day, and daily limits and
 * due counts follow it. Saving refreshes what is due (profile mutations
 * invalidate the study and stats queries).
 */
import type { Profile } from "@engram/sdk";
import { useId, useMemo, useState } from "react";
import { formErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { SavedStatus, SettingsSection } from "./settings-section.js";
import { useUpdateProfile } from "./use-settings.js";

const fields = ["timezone", "day_starts_at"] as const;
const hours = Array.from({ length: 24 }, (_, hour) => hour);
export const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

function timeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

export function StudyDaySection({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const zones = useMemo(timeZones, []);
  const detected = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);
  const [timezone, setTimezone] = useState(profile.timezone);
  const [dayStart, setDayStart] = useState(profile.day_starts_at);
  const [saved, setSaved] = useState("");
  const id = useId();
  const errors = formErrors(update.error, fields);

  return (
    <SettingsSection
      id="study-day"
      title="Study day"
      intro="Your day of cards runs from this hour to the same hour tomorrow, in your time zone. Daily limits and what is due today follow it."
    >
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSaved("");
          update.mutate(
            { timezone: timezone.trim(), day_starts_at: dayStart },
            { onSuccess: () => setSaved("Study day saved. Today's cards are counted again.") },
          );
        }}
      >
        <TextField
          name="timezone"
          label="Time zone"
          list={`${id}-zones`}
          value={timezone}
          onChange={(event) => setTimezone(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          hint="Start typing a city or region, like Europe/Berlin, and pick it from the list."
          error={errors.fields.timezone}
        />
        <datalist id={`${id}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <p className="detected-zone">
          Detected on this device: <strong>{detected}</strong>{" "}
          {detected !== timezone ? (
            <button type="button" className="button secondary small" onClick={() => setTimezone(detected)}>
              Use detected
            </button>
          ) : (
            <span className="muted">(in use)</span>
          )}
        </p>
        <div className="field">
          <label htmlFor={`${id}-start`}>Day starts at</label>
          <p id={`${id}-start-hint`} className="field-hint">
            Your day starts at {hourLabel(dayStart)}. Late-night study before then still counts for the day before.
          </p>
          <select
            id={`${id}-start`}
            name="day_starts_at"
            data-field="day_starts_at"
            className="select"
            value={dayStart}
            aria-describedby={`${id}-start-hint${errors.fields.day_starts_at ? ` ${id}-start-error` : ""}`}
            aria-invalid={errors.fields.day_starts_at ? true : undefined}
            onChange={(event) => setDayStart(Number(event.currentTarget.value))}
          >
            {hours.map((hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
          {errors.fields.day_starts_at ? (
            <p id={`${id}-start-error`} className="field-error">
              {errors.fields.day_starts_at}
            </p>
          ) : null}
        </div>
        {update.error && errors.summary.every((item) => !item.field) ? (
          <p className="field-error" role="alert">
            {errors.summary[0]?.message}
          </p>
        ) : null}
        <div className="settings-actions">
          <SubmitButton pending={update.isPending} pendingLabel="Saving…">
            Save study day
          </SubmitButton>
          <SavedStatus message={saved} />
        </div>
      </form>
    </SettingsSection>
  );
}
