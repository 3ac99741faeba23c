/**
 * What the note browser shows lives in the URL (search, tag, kind or note type, order), so
 * a filtered view can be bookmarked, shared and restored with Back.
 */
import { type NoteSort, noteSorts } from "@engram/sdk";
import type { NotePagesParams } from "@engram/sdk/query";
import { useCallback } from "react";
import { choiceField, textField, type UrlSchema, useUrlState } from "../../lib/use-url-state.js";

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

export interface BrowserParams {
  search: string;
  tag: string;
  kind: NoteKindFilter | "";
  /** One of the deck's note types, by id; set only when `kind` is not. */
  noteType: string;
  sort: NoteSort;
}

const schema: UrlSchema<BrowserParams> = {
  search: textField("q"),
  tag: textField("tag"),
  kind: choiceField<NoteKindFilter | "">("kind", kinds, ""),
  noteType: textField("type"),
  sort: choiceField("sort", noteSorts, "newest"),
};

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

/** The SDK's list options for these params (empty ones left out, so equal views share a cache entry). */
export function listOptions(params: BrowserParams): NotePagesParams {
  const search = params.search.trim();
  const tag = params.tag.trim().replace(/^#/, "");
  return {
    ...(search ? { search } : {}),
    ...(tag ? { tags: [tag] } : {}),
    ...(params.kind ? { kind: params.kind } : {}),
    // A hand-edited link naming no note type lists every note rather than fail.
    ...(!params.kind && uuidPattern.test(params.noteType) ? { noteTypeId: params.noteType } : {}),
    sort: params.sort,
  };
}
