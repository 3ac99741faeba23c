import type { Deck, DeckPresence, DeckRole } from "@engram/sdk";
import { ArrowLeft, GraduationCap, History, Keyboard, Lightbulb, Plus, Settings, Trash2 } from "lucide-react";
import { CustomStudyButton } from "../../custom-study/custom-study-button.js";
import { ExportMenu } from "../../export/export-menu.js";
import { Link } from "../../lib/navigation.js";
import { SuggestionsLink } from "../../suggestion-form/suggestions-link.js";
import { DeckBreadcrumbs } from "../../ui/deck-tree/deck-breadcrumbs.js";
import { PresenceAvatars } from "./presence-avatars.js";

const roleLabels: Record<DeckRole, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };
const numberFormat = new Intl.NumberFormat();

export function DeckHeader({
  deck,
  role,
  noteCount,
  others,
  onAdd,
  onSuggest,
  onHelp,
}: {
  deck: Deck;
  role: DeckRole | null;
  noteCount: number | undefined;
  others: DeckPresence[];
  /** Absent for people who cannot add notes. */
  onAdd: (() => void) | undefined;
  /** For people who suggest notes instead of adding them (docs/product.md §4, "Suggestions"). */
  onSuggest?: (() => void) | undefined;
  onHelp: () => void;
}) {
  return (
    <header className="deck-header">
      <Link to="/decks" className="back-link">
        <ArrowLeft aria-hidden="true" /> Back to decks
      </Link>
      <div className="deck-title-row">
        <div className="deck-title">
          <DeckBreadcrumbs deckId={deck.id} />
          <h1>{deck.name}</h1>
          <p className="deck-facts">
            <span className={`role role-${role ?? "viewer"}`}>{role ? roleLabels[role] : "Public deck"}</span>
            <span>
              {noteCount === undefined
                ? "Counting notes…"
                : `${numberFormat.format(noteCount)} ${noteCount === 1 ? "note" : "notes"}`}
            </span>
          </p>
        </div>
        <PresenceAvatars others={others} />
      </div>
      {deck.description ? <p className="deck-description">{deck.description}</p> : null}
      <div className="deck-toolbar">
        <Link to={`/decks/${deck.id}/study`} className="button primary">
          <GraduationCap aria-hidden="true" /> Study
        </Link>
        {role ? <CustomStudyButton deckId={deck.id} /> : null}
        {onAdd ? (
          <button type="button" className="button secondary" onClick={onAdd} aria-keyshortcuts="a">
            <Plus aria-hidden="true" /> Add note
          </button>
        ) : null}
        {onSuggest ? (
          <>
            <button type="button" className="button secondary" onClick={onSuggest}>
              <Lightbulb aria-hidden="true" /> Suggest a note
            </button>
            <Link to="/suggestions" className="button secondary">
              My suggestions
            </Link>
          </>
        ) : null}
        {role === "owner" || role === "editor" ? <SuggestionsLink deckId={deck.id} /> : null}
        <button type="button" className="button secondary" onClick={onHelp} aria-keyshortcuts="?">
          <Keyboard aria-hidden="true" /> Shortcuts
        </button>
        <ExportMenu deckId={deck.id} />
        <Link to={`/decks/${deck.id}/history`} className="button secondary">
          <History aria-hidden="true" /> History
        </Link>
        {role ? (
          <Link to={`/decks/${deck.id}/deleted`} className="button secondary">
            <Trash2 aria-hidden="true" /> Recently deleted
          </Link>
        ) : null}
        {role ? (
          <Link to={`/decks/${deck.id}/settings`} className="button secondary">
            <Settings aria-hidden="true" /> Settings
          </Link>
        ) : null}
      </div>
    </header>
  );
}
