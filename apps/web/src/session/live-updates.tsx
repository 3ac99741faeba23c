/**
 * Keeps what the signed-in screens show in step with changes made elsewhere
 * (another device, a co-member) through the SDK's one realtime → cache wiring.
 */
import { wireRealtime } from "@engram/sdk/query";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useEngram } from "./engram-context.js";
import { useEngramQueries } from "./factories.js";

export function LiveUpdates() {
  const engram = useEngram();
  const queryClient = useQueryClient();
  const { data: decks } = useQuery(useEngramQueries().decks.list());
  // A string, so a refetch that returns the same decks does not resubscribe.
  const deckIds = decks?.map((deck) => deck.id).join(",") ?? "";

  useEffect(() => {
    const stop = wireRealtime(engram, queryClient, { deckIds: deckIds ? deckIds.split(",") : [] });
    return () => {
      void stop();
    };
  }, [engram, queryClient, deckIds]);

  return null;
}
