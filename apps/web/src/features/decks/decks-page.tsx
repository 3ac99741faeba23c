import type { DeckStats, MyDeck } from "@engram/sdk";
import { useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { useLocation } from "../../lib/navigation.js";
import { onDemand } from "../../lib/preloadable.js";
import { AddSampleDeckButton, SampleDeckAdded, useAddSampleDeck } from "../../sample-deck/sample-deck.js";
import { buildTree, descendantCount, type TreeNode } from "../../ui/deck-tree/deck-tree.js";
import { treeDueCounts } from "../../ui/deck-tree/tree-counts.js";
import { useCollapsedDecks } from "../../ui/deck-tree/tree-toggle.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { CreateDeckForm } from "./create-deck-form.js";
import { DeckItem } from "./deck-item.js";
import { useDeckStats, useDecks } from "./use-decks.js";
import "./decks.css";

// A deck's dialogs, and the dialog library, load with the first one opened.
const AddSubdeckDialog = onDemand(() => import("./add-subdeck-dialog.js").then((m) => m.AddSubdeckDialog));
const DeleteDeckDialog = onDemand(() => import("./delete-deck-dialog.js").then((m) => m.DeleteDeckDialog));
const LeaveDeckDialog = onDemand(() => import("./leave-deck-dialog.js").then((m) => m.LeaveDeckDialog));
const MoveDeckDialog = onDemand(() => import("./move-deck-dialog.js").then((m) => m.MoveDeckDialog));
const RenameDeckDialog = onDemand(() => import("./rename-deck-dialog.js").then((m) => m.RenameDeckDialog));

type Editing = {
  action: "rename" | "move" | "delete" | "leave" | "add-subdeck";
  deck: MyDeck;
  subdecks?: number;
} | null;

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
  const collapsed = useCollapsedDecks();
  const addSample = useAddSampleDeck();

  return (
    <div className="page">
      <h1>Your decks</h1>
      <CreateDeckForm focusOnMount={(location.state as DecksPageState | null)?.createDeck === true} />
      {addSample.data ? <SampleDeckAdded sample={addSample.data} /> : null}
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
        <div className="empty">
          <p>No decks yet. Name your first one above to start, or try a sample deck.</p>
          <AddSampleDeckButton add={addSample} />
        </div>
      ) : (
        <ul className="deck-list" aria-label="Decks">
          <DeckBranch
            nodes={buildTree(
              decks.data,
              (deck) => deck.id,
              (deck) => deck.parent_id,
            )}
            stats={stats.data ? statsByDeck : undefined}
            isExpanded={collapsed.isExpanded}
            onToggle={collapsed.toggle}
            onEdit={setEditing}
          />
        </ul>
      )}
      {editing?.action === "rename" ? <RenameDeckDialog deck={editing.deck} onClose={close} /> : null}
      {editing?.action === "move" && decks.data ? (
        <MoveDeckDialog deck={editing.deck} decks={decks.data} onClose={close} />
      ) : null}
      {editing?.action === "delete" ? (
        <DeleteDeckDialog deck={editing.deck} subdecks={editing.subdecks ?? 0} onClose={close} />
      ) : null}
      {editing?.action === "add-subdeck" ? <AddSubdeckDialog parent={editing.deck} onClose={close} /> : null}
      {editing?.action === "leave" ? <LeaveDeckDialog deck={editing.deck} onClose={close} /> : null}
    </div>
  );
}

/** One level of the tree: each deck with its subdecks nested in it. */
function DeckBranch({
  nodes,
  stats,
  isExpanded,
  onToggle,
  onEdit,
}: {
  nodes: TreeNode<MyDeck>[];
  /** Undefined while today's figures load. */
  stats: Map<string, DeckStats> | undefined;
  isExpanded: (deckId: string) => boolean;
  onToggle: (deckId: string) => void;
  onEdit: (editing: Editing) => void;
}) {
  return nodes.map(({ item: deck, children }) => (
    <DeckItem
      key={deck.id}
      deck={deck}
      // A deck created a moment ago has no row until the figures refetch: nothing is due in it yet.
      counts={stats ? treeDueCounts(stats.get(deck.id)) : undefined}
      subdecks={
        children.length > 0 ? (
          <DeckBranch nodes={children} stats={stats} isExpanded={isExpanded} onToggle={onToggle} onEdit={onEdit} />
        ) : null
      }
      expanded={isExpanded(deck.id)}
      onToggle={() => onToggle(deck.id)}
      onAddSubdeck={(target) => onEdit({ action: "add-subdeck", deck: target })}
      onRename={(target) => onEdit({ action: "rename", deck: target })}
      onMove={(target) => onEdit({ action: "move", deck: target })}
      onDelete={(target) =>
        onEdit({ action: "delete", deck: target, subdecks: descendantCount({ item: deck, children }) })
      }
      onLeave={(target) => onEdit({ action: "leave", deck: target })}
    />
  ));
}
