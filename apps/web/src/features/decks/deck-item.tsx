import type { DeckRole, MyDeck } from "@engram/sdk";
import { FolderInput, FolderPlus, LogOut, Pencil, Play, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "../../lib/navigation.js";
import { TreeToggle } from "../../ui/deck-tree/tree-toggle.js";
import { DueCountList, type DueCounts } from "../../ui/due-counts.js";

const roleLabels: Record<DeckRole, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function DeckItem({
  deck,
  counts,
  subdecks,
  expanded,
  onToggle,
  onAddSubdeck,
  onRename,
  onMove,
  onDelete,
  onLeave,
}: {
  deck: MyDeck;
  /** Undefined while today's figures load. With subdecks, theirs are included: studying the deck studies them. */
  counts: DueCounts | undefined;
  /** The list of its subdecks, if it has any. */
  subdecks: ReactNode;
  expanded: boolean;
  onToggle: () => void;
  onAddSubdeck: (deck: MyDeck) => void;
  onRename: (deck: MyDeck) => void;
  onMove: (deck: MyDeck) => void;
  onDelete: (deck: MyDeck) => void;
  onLeave: (deck: MyDeck) => void;
}) {
  const headingId = `deck-${deck.id}`;
  const childrenId = `deck-${deck.id}-subdecks`;
  const due = counts ? counts.new + counts.learning + counts.review : 0;
  return (
    <li className="deck" aria-labelledby={headingId}>
      <div className="deck-text">
        {subdecks ? (
          <TreeToggle expanded={expanded} onToggle={onToggle} controls={childrenId} name={deck.name} />
        ) : null}
        <h2 id={headingId} className="deck-name">
          <Link to={`/decks/${deck.id}`}>{deck.name}</Link>
        </h2>
        <span className={`role role-${deck.role}`}>{roleLabels[deck.role]}</span>
        {deck.description ? <p className="deck-description">{deck.description}</p> : null}
        {counts ? <DueCountList counts={counts} /> : null}
      </div>
      <div className="deck-actions">
        {counts === undefined ? null : due > 0 ? (
          <Link className="button primary small" to={`/decks/${deck.id}/study`}>
            <Play aria-hidden="true" /> Study<span className="visually-hidden"> {deck.name}</span>
          </Link>
        ) : (
          <span className="deck-nothing-due">Nothing due</span>
        )}
        {/* Only owners may rename, move, delete or add subdecks (docs/product.md §6); the database enforces it too. Owners cannot leave. */}
        {deck.role === "owner" ? (
          <>
            <button type="button" className="button secondary small" onClick={() => onAddSubdeck(deck)}>
              <FolderPlus aria-hidden="true" /> Add subdeck<span className="visually-hidden"> to {deck.name}</span>
            </button>
            <button type="button" className="button secondary small" onClick={() => onRename(deck)}>
              <Pencil aria-hidden="true" /> Rename<span className="visually-hidden"> {deck.name}</span>
            </button>
            <button type="button" className="button secondary small" onClick={() => onMove(deck)}>
              <FolderInput aria-hidden="true" /> Move…<span className="visually-hidden"> {deck.name}</span>
            </button>
            <button type="button" className="button danger-outline small" onClick={() => onDelete(deck)}>
              <Trash2 aria-hidden="true" /> Delete<span className="visually-hidden"> {deck.name}</span>
            </button>
          </>
        ) : (
          <button type="button" className="button secondary small" onClick={() => onLeave(deck)}>
            <LogOut aria-hidden="true" /> Leave<span className="visually-hidden"> {deck.name}</span>
          </button>
        )}
      </div>
      {subdecks ? (
        <ul
          id={childrenId}
          className="deck-list deck-subdecks"
          aria-label={`Subdecks of ${deck.name}`}
          hidden={!expanded}
        >
          {subdecks}
        </ul>
      ) : null}
    </li>
  );
}
