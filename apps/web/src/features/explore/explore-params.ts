/** What a visitor would share about an explore search lives in the URL: `?q=`, `?sort=`, `?preview=<deckId>`. */
import type { ExploreSort } from "@engram/sdk";
import { useCallback } from "react";
import { choiceField, textField, type UrlSchema, useUrlState } from "../../lib/use-url-state.js";

export interface ExploreParams {
  q: string;
  sort: ExploreSort;
  preview: string | null;
}

const sorts: readonly ExploreSort[] = ["newest", "most_cloned"];

// Defaults stay out of the URL, so the plain page is plain /explore.
const schema: UrlSchema<ExploreParams> = {
  q: textField("q"),
  sort: choiceField("sort", sorts, "newest"),
  preview: { param: "preview", parse: (raw) => raw, format: (value) => value || null },
};

export function useExploreParams(): [ExploreParams, (patch: Partial<ExploreParams>) => void] {
  const [params, update] = useUrlState(schema);
  const change = useCallback(
    // Typing a search replaces the entry; opening a preview is a step Back undoes.
    (patch: Partial<ExploreParams>) => update(patch, { replace: !("preview" in patch) }),
    [update],
  );
  return [params, change];
}
