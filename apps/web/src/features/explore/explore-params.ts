/** What a visitor would share about an explore search lives in the URL: `?q=`, `?sort=`, `?preview=<deckId>`. */
import type { ExploreSort } from "@engram/sdk";
import { useCallback } from "react";
import { useSearchParams } from "react-router";

export interface ExploreParams {
  q: string;
  sort: ExploreSort;
  preview: string | null;
}

export function useExploreParams(): [ExploreParams, (patch: Partial<ExploreParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params: ExploreParams = {
    q: search.get("q") ?? "",
    sort: search.get("sort") === "most_cloned" ? "most_cloned" : "newest",
    preview: search.get("preview"),
  };
  const update = useCallback(
    (patch: Partial<ExploreParams>) => {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(patch)) {
            // Defaults stay out of the URL, so the plain page is plain /explore.
            if (value === null || value === "" || (key === "sort" && value === "newest")) next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        // Typing a search replaces the entry; opening a preview is a step Back undoes.
        { replace: !("preview" in patch) },
      );
    },
    [setSearch],
  );
  return [params, update];
}
