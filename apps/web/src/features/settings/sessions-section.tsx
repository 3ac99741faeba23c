/** Signing out of every device at once: the others end within seconds (src/session/session-watch.ts). */
import { LogOut } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Dialog } from "../../ui/dialog.js";
import { SettingsSection } from "./settings-section.js";
import { useSignOutEverywhere } from "./use-settings.js";

export function SessionsSection() {
  const [confirming, setConfirming] = useState(false);
  return (
    <SettingsSection
      id="sessions"
      title="Sessions"
      intro="Lost a phone, or signed in on a shared computer? Sign out everywhere: every browser and device where you use Engram asks you to sign in again."
    >
      <button type="button" className="button secondary" onClick={() => setConfirming(true)}>
        <LogOut aria-hidden="true" /> Sign out of all devices
      </button>
      {confirming ? <ConfirmSignOut onClose={() => setConfirming(false)} /> : null}
    </SettingsSection>
  );
}

function ConfirmSignOut({ onClose }: { onClose: () => void }) {
  const signOut = useSignOutEverywhere();
  return (
    <Dialog title="Sign out of all devices?" onClose={onClose}>
      <p>
        You will be signed out here and on every other device within seconds. Answers a device has not sent yet are kept
        there and sent after you sign in again.
      </p>
      {signOut.error ? (
        <p role="alert" className="field-error">
          {errorMessage(signOut.error)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button danger"
          disabled={signOut.isPending}
          aria-busy={signOut.isPending || undefined}
          onClick={() => signOut.mutate()}
        >
          {signOut.isPending ? "Signing out…" : "Sign out everywhere"}
        </button>
      </div>
    </Dialog>
  );
}
