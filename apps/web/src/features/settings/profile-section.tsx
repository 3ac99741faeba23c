/** Name and picture: what co-members see beside the people in a shared deck. */
import type { Profile } from "@engram/sdk";
import { useId, useRef, useState } from "react";
import { type FormErrors, formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { avatarUploadMessage, errorMessage } from "../../lib/error-messages.js";
import { SavedStatus, SettingsSection } from "./settings-section.js";
import { useAvatarUrl, useRemoveAvatar, useUpdateProfile, useUploadAvatar } from "./use-settings.js";

const nameFields = ["display_name"] as const;
const emptyName: FormErrors = {
  fields: { display_name: "Enter the name others see on decks you share." },
  summary: [{ field: "display_name", message: "Enter the name others see on decks you share." }],
};

export function ProfileSection({ profile }: { profile: Profile }) {
  return (
    <SettingsSection id="profile" title="Profile" intro="People you share decks with see your name and picture.">
      <AvatarEditor path={profile.avatar_path} name={profile.display_name} />
      <NameForm name={profile.display_name} />
    </SettingsSection>
  );
}

function NameForm({ name }: { name: string }) {
  const update = useUpdateProfile();
  const [empty, setEmpty] = useState(false);
  const [saved, setSaved] = useState("");
  const errors = empty ? emptyName : formErrors(update.error, nameFields);

  return (
    <form
      className="settings-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const displayName = textOf(new FormData(event.currentTarget), "display_name").trim();
        setSaved("");
        update.reset();
        setEmpty(!displayName);
        if (!displayName) return;
        update.mutate({ display_name: displayName }, { onSuccess: () => setSaved("Name saved.") });
      }}
    >
      <TextField
        name="display_name"
        label="Display name"
        defaultValue={name}
        autoComplete="nickname"
        hint="Up to 80 characters."
        error={errors.fields.display_name ?? (update.error ? errorMessage(update.error) : undefined)}
      />
      <div className="settings-actions">
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save name
        </SubmitButton>
        <SavedStatus message={saved} />
      </div>
    </form>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts.at(-1)] : [parts[0]?.slice(0, 2)];
  return letters
    .map((part) => part?.[0] ?? "")
    .join("")
    .toUpperCase();
}

function AvatarEditor({ path, name }: { path: string | null; name: string }) {
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const url = useAvatarUrl(path);
  const inputRef = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState("");
  const id = useId();
  const error = upload.error ?? remove.error;
  const message = upload.error ? avatarUploadMessage(upload.error) : remove.error ? errorMessage(remove.error) : null;
  const pending = upload.isPending || remove.isPending;

  const choose = (file: File | undefined) => {
    if (!file) return;
    setSaved("");
    remove.reset();
    upload.mutate(
      { file },
      {
        onSuccess: () => setSaved(path ? "Picture replaced." : "Picture saved."),
        // The same file chosen again after fixing nothing would not fire `change`.
        onSettled: () => {
          if (inputRef.current) inputRef.current.value = "";
        },
      },
    );
  };

  return (
    <div className="avatar-editor">
      <div className="avatar-large" aria-hidden={url.data ? undefined : true}>
        {url.data ? <img src={url.data} alt="You, as others see you" /> : <span>{initials(name) || "?"}</span>}
      </div>
      <div className="avatar-controls">
        <div className="field">
          <label htmlFor={`${id}-file`}>{path ? "Replace your picture" : "Add a picture"}</label>
          <p id={`${id}-hint`} className="field-hint">
            PNG, JPEG, GIF or WebP, up to 2 MB.
          </p>
          <input
            ref={inputRef}
            id={`${id}-file`}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            disabled={pending}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${message ? ` ${id}-error` : ""}`}
            onChange={(event) => choose(event.currentTarget.files?.[0])}
          />
          {message ? (
            <p id={`${id}-error`} className="field-error" role="alert">
              {message}
            </p>
          ) : null}
        </div>
        <div className="settings-actions">
          {path ? (
            <button
              type="button"
              className="button secondary small"
              disabled={pending}
              onClick={() => {
                setSaved("");
                upload.reset();
                remove.mutate(undefined, { onSuccess: () => setSaved("Picture removed.") });
              }}
            >
              {remove.isPending ? "Removing…" : "Remove picture"}
            </button>
          ) : null}
          <SavedStatus message={upload.isPending ? "Uploading…" : saved} />
        </div>
      </div>
    </div>
  );
}
