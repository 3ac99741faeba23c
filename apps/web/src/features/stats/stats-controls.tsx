import type { MyDeck } from "@engram/sdk";
import { useEffect, useState } from "react";
import { type Period, periodLabels, periods, type StatsParams } from "./stats-params.js";

/** What the figures cover: every deck or one, and the period of the per-day charts. */
export function StatsControls({
  decks,
  params,
  onChange,
}: {
  decks: MyDeck[] | undefined;
  params: StatsParams;
  onChange: (patch: Partial<StatsParams>) => void;
}) {
  // The URL changes a moment after the click (the router navigates); the controls show the choice at once.
  const [shown, setShown] = useState(params);
  useEffect(() => setShown(params), [params]);
  const choose = (patch: Partial<StatsParams>) => {
    setShown((current) => ({ ...current, ...patch }));
    onChange(patch);
  };
  const sorted = [...(decks ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const unknown = params.deckId && decks && !decks.some((deck) => deck.id === params.deckId);
  return (
    <search className="stats-controls" aria-label="What the statistics cover">
      <div className="stats-control">
        <label htmlFor="stats-deck">Deck</label>
        <select
          id="stats-deck"
          value={shown.deckId ?? ""}
          disabled={!decks}
          onChange={(event) => choose({ deckId: event.target.value || undefined })}
        >
          <option value="">All decks</option>
          {sorted.map((deck) => (
            <option key={deck.id} value={deck.id}>
              {deck.name}
            </option>
          ))}
          {unknown ? <option value={params.deckId}>Unknown deck</option> : null}
        </select>
      </div>
      <fieldset className="stats-control period-switch">
        <legend>Period</legend>
        <div className="segmented">
          {periods.map((period: Period) => (
            <label key={period} className={shown.period === period ? "checked" : undefined}>
              <input
                type="radio"
                name="stats-period"
                value={period}
                checked={shown.period === period}
                onChange={() => choose({ period })}
              />
              {periodLabels[period]}
            </label>
          ))}
        </div>
      </fieldset>
    </search>
  );
}
