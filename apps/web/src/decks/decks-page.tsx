import type { MyDeck } from "@engram/sdk";
import { useState } from "react";
import { errorMessage } from "../errors/messages.js";
import { Loading } from "../shell/loading.js";
import { usePageTitle } from "../shell/page-title.js";
import { CreateDeckForm } from "./create-deck-form.js";
import { DeckItem } from "./deck-item.js";
import { DeleteDeckDialog } from "./delete-deck-dialog.js";
import { RenameDeckDialog } from "./rename-deck-dialog.js";
import { useDecks } from "./use-decks.js";

type Editing = { action: "rename" | "delete"; deck: MyDeck } | null;

export function DecksPage() {
  usePageTitle("Decks");
  const decks = useDecks();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <div className="page">
      <h1>Your decks</h1>
      <CreateDeckForm />
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
              onRename={(target) => setEditing({ action: "rename", deck: target })}
              onDelete={(target) => setEditing({ action: "delete", deck: target })}
            />
          ))}
        </ul>
      )}
      {editing?.action === "rename" ? <RenameDeckDialog deck={editing.deck} onClose={close} /> : null}
      {editing?.action === "delete" ? <DeleteDeckDialog deck={editing.deck} onClose={close} /> : null}
    </div>
  );
}
