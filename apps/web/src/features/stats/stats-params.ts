/**
 * What the statistics screen shows lives in the URL (`?deck=<id>&period=30|90|365`),
 * so a view can be bookmarked and restored with Back.
 */
import { choiceField, type UrlSchema, useUrlState } from "../../lib/use-url-state.js";

export const periods = [30, 90, 365] as const;
export type Period = (typeof periods)[number];

export const periodLabels: Record<Period, string> = { 30: "1 month", 90: "3 months", 365: "1 year" };

export interface StatsParams {
  /** One deck's id, or undefined for every deck. */
  deckId: string | undefined;
  period: Period;
}

const schema: UrlSchema<StatsParams> = {
  deckId: { param: "deck", parse: (raw) => raw || undefined, format: (value) => value || null },
  period: choiceField<Period>("period", periods, 30),
};

/** Each change is a step Back undoes. */
export function useStatsParams(): [StatsParams, (patch: Partial<StatsParams>) => void] {
  return useUrlState(schema);
}
