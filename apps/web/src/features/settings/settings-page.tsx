/** `/settings`: the account's profile, study day, scheduling, sign-in and deletion, each saved on its own. */
import { errorMessage } from "../../lib/error-messages.js";
import { useSession } from "../../session/session-context.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { DeleteAccountSection } from "./delete-account-section.js";
import { ProfileSection } from "./profile-section.js";
import { SchedulingSection } from "./scheduling-section.js";
import { SessionsSection } from "./sessions-section.js";
import { StudyDaySection } from "./study-day-section.js";
import { TwoFactorSection } from "./two-factor-section.js";
import { useProfile } from "./use-settings.js";
import "./settings.css";

const sections = [
  { id: "profile", title: "Profile" },
  { id: "study-day", title: "Study day" },
  { id: "scheduling", title: "Scheduling" },
  { id: "two-factor", title: "Two-factor sign-in" },
  { id: "sessions", title: "Sessions" },
  { id: "delete-account", title: "Delete account" },
];

export function SettingsPage() {
  usePageTitle("Settings");
  const session = useSession();
  const profile = useProfile();
  const email = session.status === "signed-in" ? (session.session.user.email ?? "") : "";

  return (
    <div className="settings-page">
      <header className="settings-header">
        <h1>Settings</h1>
        {email ? <p className="muted">Signed in as {email}</p> : null}
      </header>
      <nav aria-label="Settings sections" className="settings-nav">
        <ul>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-sections">
        {profile.isPending ? <Loading label="Loading your settings…" /> : null}
        {profile.isError ? (
          <div role="alert" className="error-summary">
            <p>{errorMessage(profile.error)}</p>
            <button type="button" className="button secondary small" onClick={() => void profile.refetch()}>
              Try again
            </button>
          </div>
        ) : null}
        {profile.data ? (
          <>
            <ProfileSection profile={profile.data} />
            <StudyDaySection profile={profile.data} />
            <SchedulingSection profile={profile.data} />
            <TwoFactorSection />
            <SessionsSection />
            <DeleteAccountSection email={email} />
          </>
        ) : null}
      </div>
    </div>
  );
}
