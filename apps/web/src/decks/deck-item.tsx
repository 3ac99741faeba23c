import type { DeckRole, MyDeck } from "@engram/sdk";
import { Pencil, Trash2 } from "lucide-react";

const roleLabels: Record<DeckRole, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function DeckItem({
  deck,
  onRename,
  onDelete,
}: {
  deck: MyDeck;
  onRename: (deck: MyDeck) => void;
  onDelete: (deck: MyDeck) => void;
}) {
  const headingId = `deck-${deck.id}`;
  return (
    <li className="deck" aria-labelledby={headingId}>
      <div className="deck-text">
        <h2 id={headingId} className="deck-name">
          {deck.name}
        </h2>
        <span className={`role role-${deck.role}`}>{roleLabels[deck.role]}</span>
        {deck.description ? <p className="deck-description">{deck.description}</p> : null}
      </div>
      {/* Only owners may rename or delete (PRODUCT §6); the database enforces it too. */}
      {deck.role === "owner" ? (
        <div className="deck-actions">
          <button type="button" className="button secondary small" onClick={() => onRename(deck)}>
            <Pencil aria-hidden="true" /> Rename<span className="visually-hidden"> {deck.name}</span>
          </button>
          <button type="button" className="button danger-outline small" onClick={() => onDelete(deck)}>
            <Trash2 aria-hidden="true" /> Delete<span className="visually-hidden"> {deck.name}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}
