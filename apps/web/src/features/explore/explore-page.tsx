/** `/explore`: public decks to search, preview and copy; works signed out too. */
import type { ExploreSort, PublicDeck } from "@engram/sdk";
import { Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { AddDeckButton } from "./add-deck.js";
import { DeckFacts } from "./deck-facts.js";
import { DeckPreview } from "./deck-preview.js";
import { useExploreParams } from "./explore-params.js";
import { usePublicDecks } from "./use-explore.js";
import "./explore.css";

/** Long enough to finish a word, short enough to feel live. */
const searchDelayMs = 300;

export function ExplorePage() {
  usePageTitle("Explore decks");
  const [params, update] = useExploreParams();
  const decks = usePublicDecks(params.q, params.sort);
  const list = decks.data?.pages.flat() ?? [];
  const previewed = params.preview;

  return (
    <div className="page explore-page">
      <h1>Explore decks</h1>
      <p className="lead">
        Decks people have made public. Preview their cards, then add a copy to your decks to study it on your own
        schedule.
      </p>
      <ExploreFilters
        q={params.q}
        sort={params.sort}
        onSearch={(q) => update({ q })}
        onSort={(sort) => update({ sort })}
      />
      <p role="status" className="visually-hidden">
        {decks.isSuccess && !decks.isPlaceholderData ? resultsSummary(list.length, params.q, decks.hasNextPage) : ""}
      </p>
      {decks.isPending ? <Loading label="Loading public decks…" /> : null}
      {decks.isError ? (
        <div role="alert" className="error-summary">
          <p>{errorMessage(decks.error)}</p>
          <button type="button" className="button secondary small" onClick={() => void decks.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {decks.isSuccess && list.length === 0 ? (
        params.q ? (
          <div className="explore-empty">
            <p>No public decks match “{params.q}”.</p>
            <button type="button" className="button secondary" onClick={() => update({ q: "" })}>
              Clear the search
            </button>
          </div>
        ) : (
          <div className="explore-empty">
            <p>No public decks yet. Make one of your decks public in its settings and it appears here for everyone.</p>
          </div>
        )
      ) : null}
      {list.length > 0 ? (
        <ul className="explore-list" aria-busy={decks.isPlaceholderData || undefined}>
          {list.map((deck) => (
            <ExploreItem key={deck.id} deck={deck} onPreview={() => update({ preview: deck.id })} />
          ))}
        </ul>
      ) : null}
      {decks.hasNextPage ? (
        <div className="explore-more">
          <button
            type="button"
            className="button secondary"
            disabled={decks.isFetchingNextPage}
            aria-busy={decks.isFetchingNextPage || undefined}
            onClick={() => void decks.fetchNextPage()}
          >
            {decks.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
      {previewed ? (
        <DeckPreview
          key={previewed}
          deckId={previewed}
          {...withListed(list.find((deck) => deck.id === previewed))}
          onClose={() => update({ preview: null })}
        />
      ) : null}
    </div>
  );
}

const withListed = (listed: PublicDeck | undefined) => (listed ? { listed } : {});

function resultsSummary(shown: number, q: string, more: boolean): string {
  const decks = `${shown}${more ? "+" : ""} ${shown === 1 ? "deck" : "decks"}`;
  return q ? `${decks} matching “${q}”` : `${decks} shown`;
}

function ExploreFilters({
  q,
  sort,
  onSearch,
  onSort,
}: {
  q: string;
  sort: ExploreSort;
  onSearch: (q: string) => void;
  onSort: (sort: ExploreSort) => void;
}) {
  const id = useId();
  const [text, setText] = useState(q);

  // The URL changed from elsewhere (Back, "Clear the search"): show it.
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => onSearch(text.trim()), searchDelayMs);
    return () => clearTimeout(timer);
  }, [text, q, onSearch]);

  return (
    <search className="explore-filters">
      <div className="explore-search">
        <label htmlFor={`${id}-q`}>Search public decks</label>
        <div className="explore-search-box">
          <Search aria-hidden="true" />
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            placeholder="Name or description"
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") onSearch(text.trim());
            }}
          />
        </div>
      </div>
      <div className="explore-sort">
        <label htmlFor={`${id}-sort`}>Sort by</label>
        <select
          id={`${id}-sort`}
          className="select"
          value={sort}
          onChange={(event) => onSort(event.currentTarget.value === "most_cloned" ? "most_cloned" : "newest")}
        >
          <option value="newest">Newest</option>
          <option value="most_cloned">Most copied</option>
        </select>
      </div>
    </search>
  );
}

function ExploreItem({ deck, onPreview }: { deck: PublicDeck; onPreview: () => void }) {
  return (
    <li className="explore-deck">
      <div className="explore-deck-text">
        <h2>{deck.name}</h2>
        {deck.description ? <p className="explore-deck-description">{deck.description}</p> : null}
        <DeckFacts deck={deck} />
      </div>
      <div className="explore-deck-actions">
        <button type="button" className="button secondary small" onClick={onPreview}>
          Preview <span className="visually-hidden">{deck.name}</span>
        </button>
        <AddDeckButton deckId={deck.id} deckName={deck.name} />
      </div>
    </li>
  );
}
