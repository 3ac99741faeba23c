/**
 * Custom study (docs/product.md, "Custom study"): study ahead, more new cards
 * today, forgotten cards, or cram a search; tells how many cards match before
 * the session starts, which opens at an address that keeps the choice.
 */
import { type CustomStudyOptions, customStudyLimit, EngramError } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useId, useState } from "react";
import { SubmitButton } from "../forms/submit-button.js";
import { TextField } from "../forms/text-field.js";
import { errorMessage } from "../lib/error-messages.js";
import { useNavigate } from "../lib/navigation.js";
import { useEngramQueries } from "../session/factories.js";
import { useEngramMutations } from "../session/mutations.js";
import { Dialog } from "../ui/dialog.js";
import { customStudyPath } from "./custom-params.js";
import "./custom-study.css";

type Mode = "ahead" | "more-new" | "forgotten" | "search";

const modes: { value: Mode; label: string }[] = [
  { value: "ahead", label: "Study ahead" },
  { value: "more-new", label: "More new cards today" },
  { value: "forgotten", label: "Review forgotten cards" },
  { value: "search", label: "Cram by search" },
];

/** A whole number from min to max typed in a box, or null. */
function whole(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

const count = new Intl.NumberFormat("en");

export function CustomStudyDialog({ deckId, onClose }: { deckId: string; onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const queries = useEngramQueries();
  const extend = useMutation(useEngramMutations().study.extendToday());
  const [mode, setMode] = useState<Mode>("ahead");
  const [days, setDays] = useState({ ahead: "3", forgotten: "1" });
  const [extra, setExtra] = useState("10");
  const [search, setSearch] = useState("");
  const [preview, setPreview] = useState(true);
  const deferredSearch = useDeferredValue(search.trim());

  const dayCount = mode === "ahead" || mode === "forgotten" ? whole(days[mode], 1, 365) : null;
  const extraNew = whole(extra, 1, 9999);
  const options: CustomStudyOptions | null =
    (mode === "ahead" || mode === "forgotten") && dayCount !== null
      ? { deckId, mode, days: dayCount }
      : mode === "search" && deferredSearch !== ""
        ? { deckId, mode, search: deferredSearch }
        : null;
  // One card is enough to learn how many match.
  const matching = useQuery({
    ...queries.study.custom(options ? { ...options, limit: 1 } : { deckId, mode: "ahead", days: 1, limit: 1 }),
    enabled: options !== null,
    retry: false,
  });
  const matched = options && matching.isSuccess ? matching.data.matched : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === "more-new") {
      if (extraNew === null) return;
      extend.mutate({ deckId, extraNew }, { onSuccess: () => navigate(`/decks/${deckId}/study`) });
    } else if (options && matched) {
      navigate(customStudyPath(deckId, { options, preview }));
    }
  };

  const status = (() => {
    if (mode === "more-new") {
      return extraNew === null
        ? "Give a whole number of new cards from 1 to 9999."
        : `Today only, this deck shows up to ${count.format(extraNew)} more new cards.`;
    }
    if (mode === "search" && search.trim() === "") return "Type a search, such as tag:exam1 or is:due.";
    if (options === null) return "Give a whole number of days from 1 to 365.";
    if (matching.isError) {
      return matching.error instanceof EngramError && matching.error.code === "search/syntax"
        ? `This search does not parse: ${matching.error.message}`
        : errorMessage(matching.error);
    }
    if (matched === null) return "Counting the cards…";
    if (matched === 0) return "No cards match.";
    if (matched > customStudyLimit) {
      return `${count.format(matched)} cards match; the first ${count.format(customStudyLimit)} are studied.`;
    }
    return matched === 1 ? "1 card matches." : `${count.format(matched)} cards match.`;
  })();
  const ready = mode === "more-new" ? extraNew !== null : (matched ?? 0) > 0;

  return (
    <Dialog title="Custom study" onClose={onClose} closeButton className="custom-study-dialog">
      <form onSubmit={submit} noValidate>
        <fieldset className="custom-study-choice">
          <legend>What to study</legend>
          {modes.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name="mode"
                value={option.value}
                checked={mode === option.value}
                onChange={() => setMode(option.value)}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        {mode === "ahead" || mode === "forgotten" ? (
          <TextField
            key={mode}
            name="days"
            label={mode === "ahead" ? "Cards due in the next days" : "Cards forgotten in the last days"}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            value={days[mode]}
            onChange={(event) => setDays((all) => ({ ...all, [mode]: event.target.value }))}
          />
        ) : mode === "more-new" ? (
          <TextField
            name="extra_new"
            label="New cards to add today"
            type="number"
            inputMode="numeric"
            min={1}
            max={9999}
            value={extra}
            onChange={(event) => setExtra(event.target.value)}
          />
        ) : (
          <TextField
            name="search"
            label="Search"
            hint="Anki's search syntax, as in the browser: tag:exam1, is:due, deck:Biology…"
            value={search}
            autoComplete="off"
            onChange={(event) => setSearch(event.target.value)}
          />
        )}
        {mode === "more-new" ? null : (
          <fieldset className="custom-study-choice">
            <legend>Answers</legend>
            <label>
              <input type="radio" name="answers" checked={preview} onChange={() => setPreview(true)} />
              Preview — your schedule is not changed
            </label>
            <label>
              <input type="radio" name="answers" checked={!preview} onChange={() => setPreview(false)} />
              Reschedule — answers count as usual
            </label>
          </fieldset>
        )}
        <p id={`${id}-status`} className="custom-study-count" role="status">
          {status}
        </p>
        {extend.isError ? (
          <p className="field-error" role="alert">
            {errorMessage(extend.error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          {ready ? (
            <SubmitButton pending={extend.isPending} pendingLabel="Adding…">
              {mode === "more-new" ? "Add and study" : "Start"}
            </SubmitButton>
          ) : (
            <button type="submit" className="button primary" disabled aria-describedby={`${id}-status`}>
              {mode === "more-new" ? "Add and study" : "Start"}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
