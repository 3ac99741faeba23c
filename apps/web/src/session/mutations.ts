/**
 * The SDK's mutations, built once per Engram instance and query client. Apart
 * from the queries (factories.ts), so a screen that only reads never loads them.
 */
import { engramMutations } from "@engram/sdk/query";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngram } from "./engram-context.js";

export function useEngramMutations() {
  const engram = useEngram();
  const queryClient = useQueryClient();
  return useMemo(() => engramMutations(engram, queryClient), [engram, queryClient]);
}
