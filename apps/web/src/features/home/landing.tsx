import { Layers, RefreshCw, Sparkles, Users } from "lucide-react";
import { Link, useLocation } from "../../lib/navigation.js";
import { usePageTitle } from "../../ui/page-title.js";

const features = [
  { icon: Sparkles, title: "Schedules itself", text: "FSRS-6 shows each card right before you would forget it." },
  {
    icon: Users,
    title: "Decks made together",
    text: "Edit one deck with your class or team; each studies on their own schedule.",
  },
  { icon: RefreshCw, title: "Everywhere at once", text: "Changes reach every device within a second. No sync button." },
  { icon: Layers, title: "Bring your Anki decks", text: "Import .apkg files whole, with media and review history." },
];

/** What Engram is, for someone who is not signed in. */
export function Landing() {
  usePageTitle("");
  // Set by the settings screen after it deleted the account.
  const deleted = (useLocation().state as { accountDeleted?: boolean } | null)?.accountDeleted === true;
  return (
    <div className="landing">
      {deleted ? (
        <p className="notice" role="status">
          Your account was deleted, with your progress and the decks you owned.
        </p>
      ) : null}
      <h1>Remember what you learn.</h1>
      <p className="lead">
        Flashcards that schedule themselves with FSRS, decks you edit together and each study on your own schedule,
        changes on every device within a second, and Anki decks imported whole.
      </p>
      <p className="landing-actions">
        <Link className="button primary" to="/sign-up">
          Create a free account
        </Link>
        <Link className="button secondary" to="/sign-in">
          Sign in
        </Link>
      </p>
      <ul className="features" aria-label="Why Engram">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Icon aria-hidden="true" className="feature-icon" />
            <h2>{title}</h2>
            <p>{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
