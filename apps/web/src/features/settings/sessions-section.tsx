/** Signing out of every device at once: the others end within seconds (src/session/session-watch.ts). */
import { LogOut } from "lucide-react";
import { useState } from "react";
import { onDemand } from "../../lib/preloadable.js";
import { SettingsSection } from "./settings-section.js";

const ConfirmSignOut = onDemand(() => import("./confirm-dialogs.js").then((m) => m.ConfirmSignOut));

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
