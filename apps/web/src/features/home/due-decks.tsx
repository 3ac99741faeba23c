import type { DeckStats } from "@engram/sdk";
import { Link } from "../../lib/navigation.js";
import { buildTree, type TreeNode } from "../../ui/deck-tree/deck-tree.js";
import { treeDueCounts } from "../../ui/deck-tree/tree-counts.js";
import { TreeToggle, useCollapsedDecks } from "../../ui/deck-tree/tree-toggle.js";
import { DueCountList, totalDue } from "../../ui/due-counts.js";

/**
 * Each deck with what is due in it today and the way into studying it, as a
 * tree: a deck's figures include its subdecks', as studying it studies them.
 */
export function DueDecks({ decks }: { decks: DeckStats[] }) {
  const collapsed = useCollapsedDecks();
  return (
    <ul className="due-decks" aria-label="Due today by deck">
      <DueBranch
        nodes={buildTree(
          decks,
          (deck) => deck.deck_id,
          (deck) => deck.parent_id,
        )}
        isExpanded={collapsed.isExpanded}
        onToggle={collapsed.toggle}
      />
    </ul>
  );
}

function DueBranch({
  nodes,
  isExpanded,
  onToggle,
}: {
  nodes: TreeNode<DeckStats>[];
  isExpanded: (deckId: string) => boolean;
  onToggle: (deckId: string) => void;
}) {
  return nodes.map(({ item: deck, children }) => {
    const counts = treeDueCounts(deck);
    const nameId = `due-deck-${deck.deck_id}`;
    const childrenId = `due-deck-${deck.deck_id}-subdecks`;
    const expanded = isExpanded(deck.deck_id);
    return (
      <li key={deck.deck_id} className="due-deck" aria-labelledby={nameId}>
        <span className="due-deck-title">
          {children.length > 0 ? (
            <TreeToggle
              expanded={expanded}
              onToggle={() => onToggle(deck.deck_id)}
              controls={childrenId}
              name={deck.name}
            />
          ) : null}
          <Link id={nameId} className="due-deck-name" to={`/decks/${deck.deck_id}`}>
            {deck.name}
          </Link>
        </span>
        <DueCountList counts={counts} />
        {totalDue(counts) > 0 ? (
          <Link className="button secondary small" to={`/decks/${deck.deck_id}/study`}>
            Study<span className="visually-hidden"> {deck.name}</span>
          </Link>
        ) : (
          <span className="due-nothing">Nothing due</span>
        )}
        {children.length > 0 ? (
          <ul
            id={childrenId}
            className="due-decks due-subdecks"
            aria-label={`Subdecks of ${deck.name}`}
            hidden={!expanded}
          >
            <DueBranch nodes={children} isExpanded={isExpanded} onToggle={onToggle} />
          </ul>
        ) : null}
      </li>
    );
  });
}
