/** The SDK's React Query factories, built once per Engram instance and query client (the mutations: mutations.ts). */
import { engramInvalidations, engramQueries } from "@engram/sdk/query";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngram } from "./engram-context.js";

export function useEngramQueries() {
  const engram = useEngram();
  return useMemo(() => engramQueries(engram), [engram]);
}

/** What the cache forgets after work done outside the mutations (imports, the optimiser), named for the event. */
export function useEngramInvalidations() {
  const queryClient = useQueryClient();
  return useMemo(() => engramInvalidations(queryClient), [queryClient]);
}
