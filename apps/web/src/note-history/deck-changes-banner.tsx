/**
 * On the deck screen: what others changed since the user last studied the
 * deck ("12 notes edited, 3 added, 1 deleted since you last studied, by Ana
 * and Li"), linking to those changes. Shown only when there is something;
 * dismissed until the changes or the last study change.
 */
import type { DeckChanges } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useState } from "react";
import { Link } from "../lib/navigation.js";
import { useEngramQueries } from "../session/factories.js";
import "./note-history.css";

const numberFormat = new Intl.NumberFormat();
const listFormat = new Intl.ListFormat(undefined, { style: "long", type: "conjunction" });

/** "12 notes edited, 3 added, 1 deleted": the first count names the notes. */
export function changeCounts({ edited, added, deleted }: Pick<DeckChanges, "edited" | "added" | "deleted">): string {
  const parts = [
    [edited, "edited"],
    [added, "added"],
    [deleted, "deleted"],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, what], index) =>
      index === 0
        ? `${numberFormat.format(count)} ${count === 1 ? "note" : "notes"} ${what}`
        : `${numberFormat.format(count)} ${what}`,
    )
    .join(", ");
}

/** "Ana and Li", "Ana, Li and 3 others". */
export function authorNames(authors: DeckChanges["authors"]): string {
  const names = authors.map((author) => author.name || "a member");
  if (names.length <= 3) return listFormat.format(names);
  const rest = names.length - 2;
  return listFormat.format([...names.slice(0, 2), `${rest} others`]);
}

const dismissedKey = (deckId: string) => `engram.deck-changes-dismissed.${deckId}`;
const signature = (changes: DeckChanges) => [changes.since, changes.edited, changes.added, changes.deleted].join("|");

export function DeckChangesBanner({ deckId }: { deckId: string }) {
  // Asked again on every visit: studying in between moves "since you last studied".
  const changes = useQuery({ ...useEngramQueries().noteHistory.changes(deckId), staleTime: 0 });
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(dismissedKey(deckId)));
  const data = changes.data;
  if (!data?.since || data.edited + data.added + data.deleted === 0) return null;
  if (dismissed === signature(data)) return null;
  const dismiss = () => {
    localStorage.setItem(dismissedKey(deckId), signature(data));
    setDismissed(signature(data));
  };
  return (
    <aside className="deck-changes-banner" aria-label="Changes since you last studied">
      <p>
        {changeCounts(data)} since you last studied, by {authorNames(data.authors)} —{" "}
        <Link to={`/decks/${deckId}/history?since=${encodeURIComponent(data.since)}`}>See changes</Link>
      </p>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
        <X aria-hidden="true" />
      </button>
    </aside>
  );
}
