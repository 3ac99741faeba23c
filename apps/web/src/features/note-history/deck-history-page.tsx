/**
 * `/decks/:deckId/history?since=…&until=…`: a deck's changes in a period,
 * newest first, each with what it changed and a way to the note's whole
 * history (docs/product.md §3, "Note history").
 */
import type { DeckRole, NoteHistoryEntry } from "@engram/sdk";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { errorMessage } from "../../lib/error-messages.js";
import { fieldText } from "../../lib/field-text.js";
import { Link, useParams, useSearchParams } from "../../lib/navigation.js";
import { NoteHistoryButton } from "../../note-history/note-history-button.js";
import { useFieldNames, VersionChange, VersionSummary } from "../../note-history/version-change.js";
import { useEngramQueries } from "../../session/factories.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import "../../note-history/note-history.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A valid ISO time from the URL, or undefined. */
function timeParam(value: string | null): string | undefined {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;
}

/** The deck's name and the user's role in it, from their decks or, for a public deck, its own page. */
function useDeckFacts(deckId: string) {
  const queries = useEngramQueries();
  const decks = useQuery(queries.decks.list());
  const mine = decks.data?.find((deck) => deck.id === deckId);
  const detail = useQuery({ ...queries.decks.detail(deckId), enabled: decks.isSuccess && !mine, retry: false });
  const deck = mine ?? detail.data;
  return { name: deck?.name, role: (mine?.role ?? null) as DeckRole | null };
}

/** A change under the title of its note's first field with text, as the browser names notes. */
function DeckChange({ entry, canRestore }: { entry: NoteHistoryEntry; canRestore: boolean }) {
  const names = useFieldNames(entry);
  const first = names.map((name) => fieldText(entry.fields[name] ?? "")).find((text) => text !== "");
  return (
    <li className="history-entry">
      <h2 className="deck-history-entry-note">{first ? first.slice(0, 120) : "(empty note)"}</h2>
      <VersionSummary entry={entry} />
      <VersionChange entry={entry} />
      <NoteHistoryButton noteId={entry.noteId} canRestore={canRestore} />
    </li>
  );
}

export function DeckHistoryPage() {
  const { deckId = "" } = useParams();
  const [search] = useSearchParams();
  const since = timeParam(search.get("since"));
  const until = timeParam(search.get("until"));
  const facts = useDeckFacts(deckId);
  usePageTitle(facts.name ? `Changes in ${facts.name}` : "Changes");
  const params = { ...(since ? { since } : {}), ...(until ? { until } : {}) };
  const pages = useInfiniteQuery(useEngramQueries().noteHistory.deckPages(deckId, params));
  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];
  const canRestore = facts.role === "owner" || facts.role === "editor";

  return (
    <div className="page deck-history-page">
      <Link to={`/decks/${deckId}`} className="back-link">
        <ArrowLeft aria-hidden="true" /> Back to {facts.name ?? "the deck"}
      </Link>
      <h1>Changes{facts.name ? ` in ${facts.name}` : ""}</h1>
      <p className="deck-history-period">
        {since ? `Since ${dateFormat.format(new Date(since))}` : "Since the deck began"}
        {until ? `, up to ${dateFormat.format(new Date(until))}` : ""}
        {since || until ? (
          <>
            {" — "}
            <Link to={`/decks/${deckId}/history`}>Show all changes</Link>
          </>
        ) : null}
      </p>
      {pages.isPending ? (
        <Loading label="Loading the deck's changes…" />
      ) : pages.isError ? (
        <p role="alert" className="error-summary">
          {errorMessage(pages.error)}
        </p>
      ) : entries.length === 0 ? (
        <p className="empty">No changes in this period.</p>
      ) : (
        <ol className="history-list" aria-label="Changes, newest first">
          {entries.map((entry) => (
            <DeckChange key={`${entry.noteId}-${entry.version}`} entry={entry} canRestore={canRestore} />
          ))}
        </ol>
      )}
      {pages.hasNextPage ? (
        <button
          type="button"
          className="button secondary"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? "Loading older changes…" : "Show older changes"}
        </button>
      ) : null}
    </div>
  );
}
