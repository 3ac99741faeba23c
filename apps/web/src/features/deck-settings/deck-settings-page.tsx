/**
 * `/decks/:deckId/settings`: the deck's details and limits, its members and
 * invite links, export, and the destructive steps. Owners change things;
 * editors and viewers read what applies to them and may leave.
 */
import { ArrowLeft } from "lucide-react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link, useParams } from "../../lib/navigation.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { DangerZone } from "./danger-zone.js";
import { ExportSection } from "./export-section.js";
import { GeneralSection } from "./general-section.js";
import { InvitesSection } from "./invites-section.js";
import { LeaveSection } from "./leave-section.js";
import { MembersSection } from "./members-section.js";
import { NoteTypesSection } from "./note-types-section.js";
import { roleLabels } from "./roles.js";
import { useSettingsAccess } from "./use-deck-settings.js";
import "./deck-settings.css";

export function DeckSettingsPage() {
  const { deckId = "" } = useParams();
  const access = useSettingsAccess(deckId);

  if (access.status === "loading") return <Loading label="Loading the deck's settings…" />;
  if (access.status === "error") {
    return (
      <div className="page" role="alert">
        <p>{errorMessage(access.error)}</p>
        <button type="button" className="button secondary" onClick={access.retry}>
          Try again
        </button>
      </div>
    );
  }
  if (access.status !== "ready") return <NoAccess lost={access.status === "lost"} />;

  const { deck, userId } = access;
  const owner = deck.role === "owner";
  return (
    <div className="page settings-page">
      <SettingsTitle name={deck.name} />
      <header className="settings-header">
        <Link to={`/decks/${deck.id}`} className="settings-back">
          <ArrowLeft aria-hidden="true" /> Back to the deck
        </Link>
        <h1>Deck settings</h1>
        <p className="settings-deck">
          <span className="settings-deck-name">{deck.name}</span>
          <span className={`role role-${deck.role}`}>{roleLabels[deck.role]}</span>
        </p>
        {owner ? null : (
          <p className="settings-readonly">
            Only the owner changes these settings. You can see them, export the deck, or leave it.
          </p>
        )}
      </header>
      <GeneralSection deck={deck} />
      <NoteTypesSection deck={deck} />
      <MembersSection deck={deck} userId={userId} />
      {owner ? <InvitesSection deckId={deck.id} /> : null}
      <ExportSection deckId={deck.id} />
      {owner ? <DangerZone deck={deck} /> : <LeaveSection deck={deck} />}
    </div>
  );
}

function SettingsTitle({ name }: { name: string }) {
  usePageTitle(`Settings · ${name}`);
  return null;
}

function NoAccess({ lost }: { lost: boolean }) {
  usePageTitle(lost ? "No longer shared with you" : "Deck not found");
  return (
    <div className="page settings-page">
      <h1>{lost ? "You no longer have access to this deck" : "Deck not found"}</h1>
      <p>
        {lost
          ? "It was deleted, or its owner removed you from it. Your other decks are where you left them."
          : "This deck doesn't exist, or it isn't shared with you. Ask its owner for an invite link."}
      </p>
      <p>
        <Link to="/decks" className="button primary">
          Go to your decks
        </Link>
      </p>
    </div>
  );
}
