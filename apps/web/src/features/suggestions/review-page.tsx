/**
 * `/decks/:deckId/suggestions`: the deck's review queue for its owner and
 * editors (docs/product.md §4, "Suggestions"), kept live: each suggestion
 * with its author, reason and word diff against the note as it is now;
 * accept, edit then accept, or reject with a reason, one or many at once.
 */
import type { PendingSuggestion } from "@engram/sdk";
import { maxReviewedSuggestions } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link, useParams } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { reviewErrorMessage } from "./conflict-message.js";
import { EditAcceptDialog } from "./edit-accept-dialog.js";
import { RejectDialog } from "./reject-dialog.js";
import { SuggestionCard } from "./suggestion-card.js";
import "./suggestions.css";

type Rejecting = { ids: string[] } | null;

export function ReviewPage() {
  const { deckId = "" } = useParams();
  const queries = useEngramQueries();
  const mutations = useEngramMutations();
  const deck = useQuery(queries.decks.detail(deckId));
  const queue = useQuery(queries.suggestions.pending(deckId));
  const review = useMutation(mutations.suggestions.review());
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [editing, setEditing] = useState<PendingSuggestion | null>(null);
  const [rejecting, setRejecting] = useState<Rejecting>(null);
  const [status, setStatus] = useState("");
  usePageTitle(deck.data ? `Suggestions · ${deck.data.name}` : "Suggestions");

  const pending = queue.data ?? [];
  // Selection follows the queue: a suggestion reviewed elsewhere leaves it.
  const chosen = pending.filter((suggestion) => selected.has(suggestion.id)).map((suggestion) => suggestion.id);

  const decide = (
    ids: string[],
    decision: "accept" | "reject",
    extra: { reason?: string; edits?: Record<string, { fields: Record<string, string>; tags: string[] }> } = {},
    done?: () => void,
  ) => {
    setStatus("");
    review.mutate(
      { deckId, input: { ids, decision, ...extra } },
      {
        onSuccess: () => {
          const count = ids.length === 1 ? "1 suggestion" : `${ids.length} suggestions`;
          setStatus(`${decision === "accept" ? "Accepted" : "Rejected"} ${count}.`);
          setSelected((current) => new Set([...current].filter((id) => !ids.includes(id))));
          done?.();
        },
        onError: (error) => setStatus(reviewErrorMessage(error)),
      },
    );
  };

  const allChosen = pending.length > 0 && chosen.length === Math.min(pending.length, maxReviewedSuggestions);
  return (
    <div className="page suggestions-page">
      <Link to={`/decks/${deckId}`} className="back-link">
        <ArrowLeft aria-hidden="true" /> Back to the deck
      </Link>
      <h1>Suggestions{deck.data ? ` for ${deck.data.name}` : ""}</h1>
      <p role="status" className="suggestions-status">
        {status}
      </p>
      {queue.isPending ? (
        <Loading label="Loading suggestions…" />
      ) : queue.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(queue.error)}</p>
        </div>
      ) : pending.length === 0 ? (
        <p className="empty">No suggestions are waiting. New ones show up here as they are made.</p>
      ) : (
        <>
          <div className="suggestions-bulk">
            <label>
              <input
                type="checkbox"
                checked={allChosen}
                onChange={(event) =>
                  setSelected(
                    new Set(
                      event.target.checked
                        ? pending.slice(0, maxReviewedSuggestions).map((suggestion) => suggestion.id)
                        : [],
                    ),
                  )
                }
              />{" "}
              Select all{pending.length > maxReviewedSuggestions ? ` (first ${maxReviewedSuggestions})` : ""}
            </label>
            <span>
              {pending.length} waiting{chosen.length > 0 ? `, ${chosen.length} selected` : ""}
            </span>
            <button
              type="button"
              className="button primary small"
              disabled={chosen.length === 0 || review.isPending}
              onClick={() => decide(chosen, "accept")}
            >
              Accept selected
            </button>
            <button
              type="button"
              className="button danger-outline small"
              disabled={chosen.length === 0 || review.isPending}
              onClick={() => setRejecting({ ids: chosen })}
            >
              Reject selected
            </button>
          </div>
          <ul className="suggestion-list">
            {pending.map((suggestion) => (
              <li key={suggestion.id}>
                <SuggestionCard
                  suggestion={suggestion}
                  selected={selected.has(suggestion.id)}
                  busy={review.isPending}
                  onSelect={(on) =>
                    setSelected((current) => {
                      const next = new Set(current);
                      if (on) next.add(suggestion.id);
                      else next.delete(suggestion.id);
                      return next;
                    })
                  }
                  onAccept={() => decide([suggestion.id], "accept")}
                  onEdit={() => {
                    review.reset();
                    setEditing(suggestion);
                  }}
                  onReject={() => {
                    review.reset();
                    setRejecting({ ids: [suggestion.id] });
                  }}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      {editing ? (
        <EditAcceptDialog
          suggestion={editing}
          pending={review.isPending}
          error={review.error}
          onClose={() => setEditing(null)}
          onAccept={(edit) => decide([editing.id], "accept", { edits: { [editing.id]: edit } }, () => setEditing(null))}
        />
      ) : null}
      {rejecting ? (
        <RejectDialog
          count={rejecting.ids.length}
          pending={review.isPending}
          error={review.error}
          onClose={() => setRejecting(null)}
          onReject={(reason) =>
            decide(rejecting.ids, "reject", reason.trim() ? { reason } : {}, () => setRejecting(null))
          }
        />
      ) : null}
    </div>
  );
}
