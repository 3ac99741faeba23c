/** The SDK's React Query factories, built once per Engram instance and query client. */
import { engramInvalidations, engramMutations, engramQueries } from "@engram/sdk/query";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngram } from "./engram-context.js";

export function useEngramQueries() {
  const engram = useEngram();
  return useMemo(() => engramQueries(engram), [engram]);
}

export function useEngramMutations() {
  const engram = useEngram();
  const queryClient = useQueryClient();
  return useMemo(() => engramMutations(engram, queryClient), [engram, queryClient]);
}

/** What the cache forgets after work done outside the mutations (imports, the optimiser), named for the event. */
export function useEngramInvalidations() {
  const queryClient = useQueryClient();
  return useMemo(() => engramInvalidations(queryClient), [queryClient]);
}
