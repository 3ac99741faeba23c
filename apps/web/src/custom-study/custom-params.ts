/**
 * A custom session's choice in the address (`/decks/:id/custom-study?mode=…`),
 * so a reload studies the same cards: `mode` ahead | forgotten (with `days`)
 * or search (with `q`), and `answers` preview | reschedule.
 */
import type { CustomStudyOptions } from "@engram/sdk";

export type CustomChoice = { options: CustomStudyOptions; preview: boolean };

const wholeDays = (value: string | null): number | null => {
  if (value === null || !/^\d{1,3}$/.test(value)) return null;
  const days = Number(value);
  return days >= 1 && days <= 365 ? days : null;
};

/** The choice an address names, or null when it names none that can be studied. */
export function parseCustomChoice(params: URLSearchParams, deckId: string): CustomChoice | null {
  const answers = params.get("answers");
  if (answers !== "preview" && answers !== "reschedule") return null;
  const preview = answers === "preview";
  const mode = params.get("mode");
  if (mode === "ahead" || mode === "forgotten") {
    const days = wholeDays(params.get("days"));
    return days === null ? null : { options: { deckId, mode, days }, preview };
  }
  if (mode === "search") {
    const search = params.get("q")?.trim() ?? "";
    return search === "" ? null : { options: { deckId, mode, search }, preview };
  }
  return null;
}

/** The address of a custom session of the deck. */
export function customStudyPath(deckId: string, choice: CustomChoice): string {
  const { options } = choice;
  const params = new URLSearchParams({ mode: options.mode });
  if (options.mode === "search") params.set("q", options.search);
  else params.set("days", String(options.days));
  params.set("answers", choice.preview ? "preview" : "reschedule");
  return `/decks/${deckId}/custom-study?${params.toString()}`;
}

/** What the session studies, in words, for its banner. */
export function describeChoice(options: CustomStudyOptions): string {
  const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);
  switch (options.mode) {
    case "ahead":
      return `Studying ahead: cards due in the next ${days(options.days)}`;
    case "forgotten":
      return `Cards you forgot in the last ${days(options.days)}`;
    case "search":
      return `Cards found by ${options.search}`;
  }
}
