import { ChevronRight } from "lucide-react";
import { useCallback, useState } from "react";
import "./tree-toggle.css";

/**
 * The disclosure button of a deck with subdecks: a native button, so Enter
 * and Space work, saying by aria-expanded whether the list it controls shows.
 */
export function TreeToggle({
  expanded,
  onToggle,
  controls,
  name,
}: {
  expanded: boolean;
  onToggle: () => void;
  /** The id of the list of subdecks. */
  controls: string;
  name: string;
}) {
  return (
    <button type="button" className="tree-toggle" aria-expanded={expanded} aria-controls={controls} onClick={onToggle}>
      <ChevronRight aria-hidden="true" className="tree-toggle-icon" />
      <span className="visually-hidden">Subdecks of {name}</span>
    </button>
  );
}

const storageKey = "engram.collapsed-decks";

function readCollapsed(): Set<string> {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? "[]") as unknown;
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

/** Which decks' subdecks are hidden, remembered on this device as Anki remembers collapsed decks. */
export function useCollapsedDecks() {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = useCallback((deckId: string) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(deckId)) next.add(deckId);
      try {
        localStorage.setItem(storageKey, JSON.stringify([...next]));
      } catch {
        // Private browsing may refuse storage; the choice then lasts for the page.
      }
      return next;
    });
  }, []);
  return { isExpanded: (deckId: string) => !collapsed.has(deckId), toggle };
}
