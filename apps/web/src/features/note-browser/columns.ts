/**
 * The browser's columns, as Anki's notes mode has them: across note types the
 * sort field, type, tags, cards and modified date; within one note type or
 * kind one column per field, then tags and modified date.
 */
import { type BrowserParams, fieldColumn, type NoteKindFilter } from "./browser-params.js";
import type { NoteTypeLookup } from "./plain-text.js";

export type ColumnKind = "field" | "type" | "tags" | "cards" | "modified";

export interface BrowserColumn {
  /** Unique among the columns; also the sort column of a sortable one. */
  key: string;
  label: string;
  kind: ColumnKind;
  /** The field a field column shows: a key of the note's fields, or none for the sort field. */
  field?: string;
  /** The column whose cell opens the note: the sort field, or a type's first field. */
  primary?: boolean;
  /** The order a click on the header asks for; a column without one does not sort. */
  sort?: string;
}

/** The fields of the built-in kinds, as the notes store them and Anki names them. */
const kindFields: Record<NoteKindFilter, readonly (readonly [key: string, label: string])[]> = {
  basic: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  basic_reversed: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  type_in: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  cloze: [
    ["text", "Text"],
    ["extra", "Back Extra"],
  ],
  image_occlusion: [
    ["header", "Header"],
    ["back_extra", "Back Extra"],
    ["comments", "Comments"],
  ],
};

const tags: BrowserColumn = { key: "tags", label: "Tags", kind: "tags" };
const modified: BrowserColumn = { key: "modified", label: "Modified", kind: "modified", sort: "modified" };

/** The columns for a view: one per field when it shows one note type or kind (once its type is known). */
export function browserColumns(params: Pick<BrowserParams, "kind" | "noteType">, noteTypes: NoteTypeLookup) {
  const fields: readonly (readonly [string, string])[] | undefined = params.kind
    ? kindFields[params.kind]
    : params.noteType
      ? noteTypes.get(params.noteType)?.fields.map((name) => [name, name] as const)
      : undefined;
  if (!fields) {
    return [
      { key: "sort_field", label: "Sort field", kind: "field", primary: true, sort: "sort_field" },
      { key: "type", label: "Type", kind: "type" },
      tags,
      { key: "cards", label: "Cards", kind: "cards" },
      modified,
    ] satisfies BrowserColumn[];
  }
  return [
    ...fields.map(([field, label], index): BrowserColumn => {
      // The first field is the sort field: its header sorts by it, as plain text ignoring case.
      const key = index === 0 ? "sort_field" : fieldColumn(field);
      return { key, label, kind: "field", field, primary: index === 0, sort: key };
    }),
    tags,
    modified,
  ];
}
