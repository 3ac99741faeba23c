/** The SDK's React Query factories, built once per Engram instance and query client. */
import { engramMutations, engramQueries } from "@engram/sdk/query";
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
