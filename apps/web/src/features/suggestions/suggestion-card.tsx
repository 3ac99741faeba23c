/** One suggestion in the review queue: who, why, what it changes, and accept, edit-then-accept or reject. */
import type { PendingSuggestion } from "@engram/sdk";
import { SuggestionFields } from "./suggestion-fields.js";

const actionLabels = { edit: "Edit", create: "New note", delete: "Deletion" } as const;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function SuggestionCard({
  suggestion,
  selected,
  busy,
  onSelect,
  onAccept,
  onEdit,
  onReject,
}: {
  suggestion: PendingSuggestion;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onAccept: () => void;
  onEdit: () => void;
  onReject: () => void;
}) {
  const headingId = `suggestion-${suggestion.id}`;
  const who = suggestion.authorName || "Someone";
  return (
    <article className="suggestion-card" aria-labelledby={headingId}>
      <header className="suggestion-head">
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={`Select ${who}'s suggestion`}
        />
        <h2 id={headingId}>
          <span className={`suggestion-action action-${suggestion.action}`}>{actionLabels[suggestion.action]}</span> by{" "}
          {who}
        </h2>
        <time dateTime={suggestion.createdAt}>{dateFormat.format(new Date(suggestion.createdAt))}</time>
      </header>
      {suggestion.changedSince ? (
        <p className="notice changed-since">The note changed since this was suggested.</p>
      ) : null}
      {suggestion.rationale ? (
        <blockquote className="suggestion-rationale">
          <span className="visually-hidden">Reason: </span>
          {suggestion.rationale}
        </blockquote>
      ) : null}
      <SuggestionFields suggestion={suggestion} />
      <div className="suggestion-actions">
        <button type="button" className="button primary small" disabled={busy} onClick={onAccept}>
          Accept
        </button>
        {suggestion.action !== "delete" ? (
          <button type="button" className="button secondary small" disabled={busy} onClick={onEdit}>
            Edit, then accept
          </button>
        ) : null}
        <button type="button" className="button danger-outline small" disabled={busy} onClick={onReject}>
          Reject
        </button>
      </div>
    </article>
  );
}
