/**
 * What the note browser shows lives in the URL (search, tag, type, order), so
 * a filtered view can be bookmarked, shared and restored with Back.
 */
import { type NoteSort, noteSorts } from "@engram/sdk";
import type { NotePagesParams } from "@engram/sdk/query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";

export type NoteKindFilter = "basic" | "basic_reversed" | "cloze";
const kinds: readonly NoteKindFilter[] = ["basic", "basic_reversed", "cloze"];

export const sortLabels: Record<NoteSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  edited: "Recently edited",
  alphabetical: "Alphabetical",
};

export const kindLabels: Record<NoteKindFilter, string> = {
  basic: "Basic",
  basic_reversed: "Basic and reversed",
  cloze: "Cloze",
};

const urlNames = { search: "q", tag: "tag", kind: "kind", sort: "sort" } as const;

export interface BrowserParams {
  search: string;
  tag: string;
  kind: NoteKindFilter | "";
  sort: NoteSort;
}

export function useBrowserParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo<BrowserParams>(() => {
    const kind = searchParams.get("kind") ?? "";
    const sort = searchParams.get("sort") ?? "";
    return {
      search: searchParams.get("q") ?? "",
      tag: searchParams.get("tag") ?? "",
      kind: (kinds as readonly string[]).includes(kind) ? (kind as NoteKindFilter) : "",
      sort: (noteSorts as readonly string[]).includes(sort) ? (sort as NoteSort) : "newest",
    };
  }, [searchParams]);

  // Two changes in a row (clear the search, then type a tag) must build on each
  // other, not both on the URL of the last render. The router renders the URLs
  // asked for some time later, one after another: those are not news, while a
  // URL nobody here asked for (Back, a link) replaces what the next change builds on.
  const latest = useRef(searchParams);
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const index = pending.current.indexOf(searchParams.toString());
    if (index === -1) {
      pending.current = [];
      latest.current = searchParams;
    } else {
      pending.current = pending.current.slice(index + 1);
    }
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<BrowserParams>) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(patch) as [keyof BrowserParams, string][]) {
        const name = urlNames[key];
        if (!value || (key === "sort" && value === "newest")) next.delete(name);
        else next.set(name, value);
      }
      latest.current = next;
      pending.current.push(next.toString());
      // Typing in the search box replaces the entry instead of filling the history.
      setSearchParams(next, { replace: true });
    },
    [setSearchParams],
  );

  return [params, update] as const;
}

/** The SDK's list options for these params (empty ones left out, so equal views share a cache entry). */
export function listOptions(params: BrowserParams): NotePagesParams {
  const search = params.search.trim();
  const tag = params.tag.trim().replace(/^#/, "");
  return {
    ...(search ? { search } : {}),
    ...(tag ? { tags: [tag] } : {}),
    ...(params.kind ? { kind: params.kind } : {}),
    sort: params.sort,
  };
}
