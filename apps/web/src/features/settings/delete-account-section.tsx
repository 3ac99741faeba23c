/** Deleting the account, confirmed by typing the account's email (as GitHub asks for a repository's name). */
import { useState } from "react";
import { useNavigate } from "react-router";
import { TextField } from "../../forms/text-field.js";
import { errorMessage } from "../../lib/error-messages.js";
import { Dialog } from "../../ui/dialog.js";
import { SettingsSection } from "./settings-section.js";
import { useDeleteAccount } from "./use-settings.js";

/** What the landing page reads from the navigation state to say the account is gone. */
export interface AccountDeletedState {
  accountDeleted: true;
}

export function DeleteAccountSection({ email }: { email: string }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <SettingsSection
      id="delete-account"
      title="Delete account"
      tone="danger"
      intro="Deletes your account, your progress and every deck you own. It can't be undone."
    >
      <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
        Delete my account…
      </button>
      {confirming ? <ConfirmDelete email={email} onClose={() => setConfirming(false)} /> : null}
    </SettingsSection>
  );
}

function ConfirmDelete({ email, onClose }: { email: string; onClose: () => void }) {
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [mismatch, setMismatch] = useState(false);

  return (
    <Dialog title="Delete your account?" onClose={onClose}>
      <p>This deletes, for good:</p>
      <ul className="delete-list">
        <li>your profile, picture and settings;</li>
        <li>your study progress and review history;</li>
        <li>every deck you own, with its notes and media, also for the people you share it with.</li>
      </ul>
      <p>Decks other people own stay theirs. To keep a deck you own, hand it to a member first in its settings.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const matches = typed.trim().toLowerCase() === email.toLowerCase();
          setMismatch(!matches);
          if (!matches) return;
          // Not mutate's own onSuccess: signing out unmounts this screen first, which would drop it.
          remove.mutateAsync().then(
            () => {
              const state: AccountDeletedState = { accountDeleted: true };
              navigate("/", { replace: true, state });
            },
            () => undefined,
          );
        }}
      >
        <TextField
          name="confirm_email"
          label={`Type ${email} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          error={mismatch ? "Type your email exactly as shown above." : undefined}
        />
        {remove.error ? (
          <p role="alert" className="field-error">
            {errorMessage(remove.error)} Your account is unchanged.
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button danger"
            disabled={remove.isPending}
            aria-busy={remove.isPending || undefined}
          >
            {remove.isPending ? "Deleting…" : "Delete my account"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
