import { EngramError, type MyDeck } from "@engram/sdk";
import { type FormEvent, useId, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { noErrors } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { errorMessage } from "../../lib/error-messages.js";
import { buildTree, type TreeNode } from "../../ui/deck-tree/deck-tree.js";
import { Dialog } from "../../ui/dialog.js";
import { useSetDeckParent } from "./use-decks.js";

/** How deep a tree may be, as the database allows (docs/product.md, subdecks). */
const maxDepth = 10;
const topLevel = "";

/** The levels `node` and the decks below it span: 1 for a deck without subdecks. */
function heightOf(node: TreeNode<MyDeck>): number {
  return 1 + Math.max(0, ...node.children.map(heightOf));
}

function findNode(nodes: TreeNode<MyDeck>[], id: string): TreeNode<MyDeck> | undefined {
  for (const node of nodes) {
    if (node.item.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** A refusal of the new place in words: the server says only that `parent_id` was refused. */
function moveError(error: unknown): string {
  if (error instanceof EngramError && error.code === "validation" && error.field === "parent_id") {
    return `That place is refused: decks nest at most ${maxDepth} levels deep, and a deck cannot go inside itself or one of its subdecks.`;
  }
  return errorMessage(error);
}

/**
 * Moves `deck` to the top level or under another deck the user owns (only
 * owners move decks, within their own trees). The deck and its subdecks are
 * not offered, and a deck that would make the tree too deep is offered
 * disabled, saying why.
 */
export function MoveDeckDialog({ deck, decks, onClose }: { deck: MyDeck; decks: MyDeck[]; onClose: () => void }) {
  const id = useId();
  const move = useSetDeckParent();
  const [choice, setChoice] = useState(deck.parent_id ?? topLevel);
  const owned = buildTree(
    decks.filter((item) => item.role === "owner"),
    (item) => item.id,
    (item) => item.parent_id,
  );
  const moving = findNode(owned, deck.id);
  const height = moving ? heightOf(moving) : 1;
  const errors = move.error ? { fields: {}, summary: [{ message: moveError(move.error) }] } : noErrors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parentId = choice === topLevel ? null : choice;
    if (parentId === deck.parent_id) onClose();
    else move.mutate({ deckId: deck.id, parentId }, { onSuccess: onClose });
  };

  const options = (nodes: TreeNode<MyDeck>[], depth: number, path: string[]) =>
    nodes
      .filter((node) => node.item.id !== deck.id)
      .map(({ item, children }) => {
        const tooDeep = depth + height > maxDepth;
        const hintId = `${id}-${item.id}-hint`;
        return (
          <li key={item.id}>
            <label className="move-deck-option">
              <input
                type="radio"
                name="parent"
                value={item.id}
                checked={choice === item.id}
                disabled={tooDeep}
                aria-describedby={tooDeep ? hintId : undefined}
                onChange={() => setChoice(item.id)}
              />
              {path.length > 0 ? <span className="visually-hidden">{path.join(" › ")} › </span> : null}
              {item.name}
            </label>
            {tooDeep ? (
              <span id={hintId} className="field-hint move-deck-hint">
                Too deep: decks nest at most {maxDepth} levels.
              </span>
            ) : null}
            {children.some((child) => child.item.id !== deck.id) ? (
              <ul className="move-deck-tree">{options(children, depth + 1, [...path, item.name])}</ul>
            ) : null}
          </li>
        );
      });

  return (
    <Dialog title={`Move “${deck.name}”`} onClose={onClose}>
      <form noValidate onSubmit={submit}>
        <ErrorSummary errors={errors} />
        <fieldset className="move-deck-choices">
          <legend>Put it</legend>
          <ul className="move-deck-tree move-deck-top">
            <li>
              <label className="move-deck-option">
                <input
                  type="radio"
                  name="parent"
                  value={topLevel}
                  checked={choice === topLevel}
                  onChange={() => setChoice(topLevel)}
                />
                At the top level
              </label>
            </li>
            {owned.some((node) => node.item.id !== deck.id) ? (
              <li>
                <span className="move-deck-under" id={`${id}-under`}>
                  Under one of your decks:
                </span>
                <ul className="move-deck-tree" aria-labelledby={`${id}-under`}>
                  {options(owned, 1, [])}
                </ul>
              </li>
            ) : null}
          </ul>
        </fieldset>
        <p className="field-hint">Its subdecks move with it; its notes keep their note types and study progress.</p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <SubmitButton pending={move.isPending} pendingLabel="Moving…">
            Move deck
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
