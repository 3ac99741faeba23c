/** Deleting the account, confirmed by typing the account's email (as GitHub asks for a repository's name). */
import { useState } from "react";
import { onDemand } from "../../lib/preloadable.js";
import { SettingsSection } from "./settings-section.js";

/** What the landing page reads from the navigation state to say the account is gone. */
export interface AccountDeletedState {
  accountDeleted: true;
}

const ConfirmDelete = onDemand(() => import("./confirm-dialogs.js").then((m) => m.ConfirmDelete));

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
