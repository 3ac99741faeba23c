/**
 * What the note browser shows lives in the URL (search, tag, kind or note type, order), so
 * a filtered view can be bookmarked, shared and restored with Back.
 */
import {
  type BrowseMode,
  browseModes,
  browseSorts,
  type NoteFilter,
  type NoteSort,
  noteSorts,
  type BrowseSort as SdkBrowseSort,
  type SortDirection,
} from "@engram/sdk";
import type { BrowsePagesParams } from "@engram/sdk/query";
import { useCallback } from "react";
import { choiceField, textField, type UrlField, type UrlSchema, useUrlState } from "../../lib/use-url-state.js";

export type NoteKindFilter = "basic" | "basic_reversed" | "cloze" | "type_in" | "image_occlusion";
const kinds: readonly NoteKindFilter[] = ["basic", "basic_reversed", "cloze", "type_in", "image_occlusion"];

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
  type_in: "Basic (type in the answer)",
  image_occlusion: "Image occlusion",
};

/**
 * A list's order in the URL: a named order ("newest", the default, "oldest",
 * "edited", "alphabetical"), or a column a header sorts by ("sort_field",
 * "created", "modified", "due", "lapses"…, or "field:<name>" for one field), with `dir`.
 */
export type BrowserSort = NoteSort | SdkBrowseSort;

/** The column and direction an order sorts by, which the table's headers show. */
export interface SortState {
  /** "sort_field", "created", "modified" or "field:<name>". */
  column: string;
  dir: SortDirection;
}

const namedOrders: Record<NoteSort, SortState> = {
  newest: { column: "created", dir: "desc" },
  oldest: { column: "created", dir: "asc" },
  edited: { column: "modified", dir: "desc" },
  alphabetical: { column: "sort_field", dir: "asc" },
};

export interface BrowserParams {
  search: string;
  tag: string;
  kind: NoteKindFilter | "";
  /** One of the deck's note types, by id; set only when `kind` is not. */
  noteType: string;
  sort: BrowserSort;
  /** The direction of a column's order (a named order has its own). */
  dir: SortDirection;
  /** A row per note or per card. */
  mode: BrowseMode;
  /** The columns chosen beside the sort field, by key, comma-separated; empty for the mode's default. */
  cols: string;
}

const fieldPrefix = "field:";

function isBrowserSort(raw: string): raw is BrowserSort {
  return (
    (noteSorts as readonly string[]).includes(raw) ||
    (browseSorts as readonly string[]).includes(raw) ||
    // Field names are 1 to 100 characters without a double quote.
    (raw.startsWith(fieldPrefix) && /^[^"]{1,100}$/.test(raw.slice(fieldPrefix.length)))
  );
}

const sortField: UrlField<BrowserSort> = {
  param: "sort",
  parse: (raw) => (raw !== null && isBrowserSort(raw) ? raw : "newest"),
  format: (value) => (value === "newest" ? null : value),
};

const schema: UrlSchema<BrowserParams> = {
  search: textField("q"),
  tag: textField("tag"),
  kind: choiceField<NoteKindFilter | "">("kind", kinds, ""),
  noteType: textField("type"),
  sort: sortField,
  dir: choiceField<SortDirection>("dir", ["asc", "desc"], "asc"),
  mode: choiceField<BrowseMode>("mode", browseModes, "notes"),
  cols: textField("cols"),
};

/** The column and direction the params' order sorts by. */
export function sortState(params: Pick<BrowserParams, "sort" | "dir">): SortState {
  const named = namedOrders[params.sort as NoteSort];
  return named ?? { column: params.sort, dir: params.dir };
}

/** The params a click on a column's header sets: that column ascending, or the other way when it is the order already. */
export function sortByColumn(current: SortState, column: string): Pick<BrowserParams, "sort" | "dir"> {
  const dir = current.column === column && current.dir === "asc" ? "desc" : "asc";
  return { sort: column as BrowserSort, dir };
}

/** The column key of one field's column. */
export const fieldColumn = (name: string) => `${fieldPrefix}${name}`;

export function useBrowserParams() {
  const [params, update] = useUrlState(schema);
  const change = useCallback(
    // Typing in the search box replaces the entry instead of filling the history.
    (patch: Partial<BrowserParams>) => update(patch, { replace: true }),
    [update],
  );
  return [params, change] as const;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters of these params, as the SDK's `notes.ids` takes them (empty ones left out, so equal views share a cache entry). */
export function filterOptions(params: BrowserParams): NoteFilter {
  const search = params.search.trim();
  const tag = params.tag.trim().replace(/^#/, "");
  return {
    ...(search ? { search } : {}),
    ...(tag ? { tags: [tag] } : {}),
    ...(params.kind ? { kind: params.kind } : {}),
    // A hand-edited link naming no note type lists every note rather than fail.
    ...(!params.kind && uuidPattern.test(params.noteType) ? { noteTypeId: params.noteType } : {}),
  };
}

/** The SDK's browse options for these params: the filters, the mode and the order. */
export function browseOptions(params: BrowserParams): BrowsePagesParams {
  const { column, dir } = sortState(params);
  return { ...filterOptions(params), mode: params.mode, sort: column as SdkBrowseSort, dir };
}
