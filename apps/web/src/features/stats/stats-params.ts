/**
 * What the statistics screen shows lives in the URL (`?deck=<id>&period=30|90|365`),
 * so a view can be bookmarked and restored with Back.
 */
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";

export const periods = [30, 90, 365] as const;
export type Period = (typeof periods)[number];

export const periodLabels: Record<Period, string> = { 30: "1 month", 90: "3 months", 365: "1 year" };

export interface StatsParams {
  /** One deck's id, or undefined for every deck. */
  deckId: string | undefined;
  period: Period;
}

export function useStatsParams(): [StatsParams, (patch: Partial<StatsParams>) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo<StatsParams>(() => {
    const period = Number(searchParams.get("period"));
    return {
      deckId: searchParams.get("deck") || undefined,
      period: (periods as readonly number[]).includes(period) ? (period as Period) : 30,
    };
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<StatsParams>) =>
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        if ("deckId" in patch) {
          if (patch.deckId) next.set("deck", patch.deckId);
          else next.delete("deck");
        }
        if (patch.period !== undefined) {
          if (patch.period === 30) next.delete("period");
          else next.set("period", String(patch.period));
        }
        return next;
      }),
    [setSearchParams],
  );

  return [params, update];
}
