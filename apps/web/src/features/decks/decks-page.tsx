import type { MyDeck } from "@engram/sdk";
import { useState } from "react";
import { useLocation } from "react-router";
import { errorMessage } from "../../lib/error-messages.js";
import { dueCounts } from "../../ui/due-counts.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { CreateDeckForm } from "./create-deck-form.js";
import { DeckItem } from "./deck-item.js";
import { DeleteDeckDialog } from "./delete-deck-dialog.js";
import { LeaveDeckDialog } from "./leave-deck-dialog.js";
import { RenameDeckDialog } from "./rename-deck-dialog.js";
import { useDeckStats, useDecks } from "./use-decks.js";
import "./decks.css";

type Editing = { action: "rename" | "delete" | "leave"; deck: MyDeck } | null;

/** Where "Create a deck" on the dashboard sends the user: the name field gets focus. */
export interface DecksPageState {
  createDeck?: boolean;
}

export function DecksPage() {
  usePageTitle("Decks");
  const decks = useDecks();
  const stats = useDeckStats();
  const location = useLocation();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);
  const statsByDeck = new Map(stats.data?.map((row) => [row.deck_id, row]));

  return (
    <div className="page">
      <h1>Your decks</h1>
      <CreateDeckForm focusOnMount={(location.state as DecksPageState | null)?.createDeck === true} />
      {decks.isPending ? (
        <Loading label="Loading your decks…" />
      ) : decks.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(decks.error)}</p>
          <button type="button" className="button secondary" onClick={() => decks.refetch()}>
            Try again
          </button>
        </div>
      ) : decks.data.length === 0 ? (
        <p className="empty">No decks yet. Name your first one above to start.</p>
      ) : (
        <ul className="deck-list" aria-label="Decks">
          {decks.data.map((deck) => (
            <DeckItem
              key={deck.id}
              deck={deck}
              // A deck created a moment ago has no row until the figures refetch: nothing is due in it yet.
              counts={stats.data ? dueCounts(statsByDeck.get(deck.id)) : undefined}
              onRename={(target) => setEditing({ action: "rename", deck: target })}
              onDelete={(target) => setEditing({ action: "delete", deck: target })}
              onLeave={(target) => setEditing({ action: "leave", deck: target })}
            />
          ))}
        </ul>
      )}
      {editing?.action === "rename" ? <RenameDeckDialog deck={editing.deck} onClose={close} /> : null}
      {editing?.action === "delete" ? <DeleteDeckDialog deck={editing.deck} onClose={close} /> : null}
      {editing?.action === "leave" ? <LeaveDeckDialog deck={editing.deck} onClose={close} /> : null}
    </div>
  );
}
