/** "Add a sample deck" on the empty dashboard and deck list, then "Study now" (docs/product.md §2, "The first minute"). */
import type { SampleDeck } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, Play, Sparkles } from "lucide-react";
import { errorMessage } from "../lib/error-messages.js";
import { Link } from "../lib/navigation.js";
import { useEngramMutations } from "../session/mutations.js";
import "./sample-deck.css";

/**
 * The button and, once added, what to do next. The parent keeps `added`, since
 * the empty state it sits in goes away as soon as the deck list refreshes.
 */
export function useAddSampleDeck() {
  return useMutation(useEngramMutations().decks.addSample());
}

export function AddSampleDeckButton({ add }: { add: ReturnType<typeof useAddSampleDeck> }) {
  return (
    <>
      <button
        type="button"
        className="button secondary"
        disabled={add.isPending}
        aria-busy={add.isPending || undefined}
        onClick={() => add.mutate()}
      >
        <Sparkles aria-hidden="true" /> {add.isPending ? "Adding the sample deck…" : "Add a sample deck"}
      </button>
      {add.isError ? (
        <p role="alert" className="notice">
          {errorMessage(add.error)}
        </p>
      ) : null}
    </>
  );
}

export function SampleDeckAdded({ sample }: { sample: SampleDeck }) {
  return (
    <section className="sample-added" role="status" aria-labelledby="sample-added-title">
      <p id="sample-added-title" className="sample-added-title">
        <CheckCircle2 aria-hidden="true" />
        {sample.created ? "Sample deck added" : "You already have the sample deck"}
      </p>
      <p>
        A few notes on how memory works, with every kind of card Engram makes. Study them, then make a deck of your own.
      </p>
      <div className="form-actions">
        <Link className="button primary" to={`/decks/${sample.deckId}/study`}>
          <Play aria-hidden="true" /> Study now
        </Link>
        <Link className="button secondary" to={`/decks/${sample.deckId}`}>
          Open the sample deck
        </Link>
      </div>
    </section>
  );
}
