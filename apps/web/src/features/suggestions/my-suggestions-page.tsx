/**
 * `/suggestions`: the user's own suggestions, newest first, with what became
 * of them (accepted, rejected with the reviewer's reason, closed), updated
 * live as maintainers review them; a pending one may be withdrawn.
 */
import type { MySuggestion, SuggestionStatus } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../lib/error-messages.js";
import { fieldText } from "../../lib/field-text.js";
import { Link } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import "./suggestions.css";

const statusLabels: Record<SuggestionStatus, string> = {
  pending: "Waiting for review",
  accepted: "Accepted",
  rejected: "Rejected",
  closed: "Closed",
};
const closedReasons = {
  withdrawn: "You withdrew it.",
  note_deleted: "The note was deleted.",
  not_allowed: "The deck no longer takes your suggestions.",
} as const;
const actionLabels = { edit: "Edit", create: "New note", delete: "Deletion" } as const;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A line naming the note: its first field as text. */
function summary(suggestion: MySuggestion): string {
  const fields = suggestion.fields ?? suggestion.base_fields ?? {};
  const first = Object.values(fields).find((value) => fieldText(value).trim() !== "") ?? "";
  return fieldText(first).slice(0, 120) || "(empty)";
}

export function MySuggestionsPage() {
  usePageTitle("My suggestions");
  const queries = useEngramQueries();
  const mutations = useEngramMutations();
  const mine = useQuery(queries.suggestions.mine());
  const withdraw = useMutation(mutations.suggestions.withdraw());

  return (
    <div className="page suggestions-page">
      <h1>My suggestions</h1>
      {mine.isPending ? (
        <Loading label="Loading your suggestions…" />
      ) : mine.isError ? (
        <p role="alert" className="notice">
          {errorMessage(mine.error)}
        </p>
      ) : mine.data.length === 0 ? (
        <p className="empty">You have not suggested anything yet. Open a shared deck to suggest an edit or a note.</p>
      ) : (
        <ul className="suggestion-list">
          {mine.data.map((suggestion) => (
            <li key={suggestion.id}>
              <article className="suggestion-card" aria-labelledby={`mine-${suggestion.id}`}>
                <header className="suggestion-head">
                  <h2 id={`mine-${suggestion.id}`}>
                    <span className={`suggestion-action action-${suggestion.action}`}>
                      {actionLabels[suggestion.action]}
                    </span>{" "}
                    {summary(suggestion)}
                  </h2>
                  <span className={`suggestion-status status-${suggestion.status}`} data-status={suggestion.status}>
                    {statusLabels[suggestion.status]}
                  </span>
                </header>
                <p className="muted">
                  {suggestion.deck_name ? (
                    <Link to={`/decks/${suggestion.deck_id}`}>{suggestion.deck_name}</Link>
                  ) : (
                    "A deck you no longer see"
                  )}{" "}
                  · <time dateTime={suggestion.created_at}>{dateFormat.format(new Date(suggestion.created_at))}</time>
                </p>
                {suggestion.rationale ? (
                  <blockquote className="suggestion-rationale">
                    <span className="visually-hidden">Your reason: </span>
                    {suggestion.rationale}
                  </blockquote>
                ) : null}
                {suggestion.status === "closed" && suggestion.closed_because ? (
                  <p>{closedReasons[suggestion.closed_because]}</p>
                ) : null}
                {suggestion.review_reason ? (
                  <p className="review-reason">
                    <strong>Reviewer's reason:</strong> {suggestion.review_reason}
                  </p>
                ) : null}
                {suggestion.status === "pending" ? (
                  <button
                    type="button"
                    className="button secondary small"
                    disabled={withdraw.isPending}
                    onClick={() => withdraw.mutate(suggestion.id)}
                  >
                    Withdraw
                  </button>
                ) : null}
              </article>
            </li>
          ))}
        </ul>
      )}
      {withdraw.isError ? (
        <p role="alert" className="notice">
          {errorMessage(withdraw.error)}
        </p>
      ) : null}
    </div>
  );
}
