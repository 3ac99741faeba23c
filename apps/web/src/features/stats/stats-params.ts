/**
 * What the statistics screen shows lives in the URL (`?deck=<id>&period=30|90|365|all`),
 * so a view can be bookmarked and restored with Back.
 */
import { choiceField, readUrlState, type UrlSchema, useUrlState } from "../../lib/use-url-state.js";

export const periods = [30, 90, 365, "all"] as const;
export type Period = (typeof periods)[number];

export const periodLabels: Record<Period, string> = { 30: "1 month", 90: "3 months", 365: "1 year", all: "All time" };
/** The period as the figures' captions name it. */
export const periodSpans: Record<Period, string> = {
  30: "past 1 month",
  90: "past 3 months",
  365: "past 1 year",
  all: "all time",
};
/** The period at the end of a sentence: "No reviews in the past 1 month." */
export const periodPhrases: Record<Period, string> = {
  30: "in the past 1 month",
  90: "in the past 3 months",
  365: "in the past 1 year",
  all: "since the first answer",
};

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

/** The view a URL's search params name, read as the screen reads them. */
export function readStatsParams(searchParams: URLSearchParams): StatsParams {
  return readUrlState(schema, searchParams);
}
