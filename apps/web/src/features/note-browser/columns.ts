/**
 * The browser's columns, as Anki's browser has them: the sort field first
 * (within one note type or kind, one column per field instead), then the
 * columns the user chose (kept in the URL), which differ between notes mode
 * and cards mode. Schedule columns are the user's own.
 */
import type { BrowseMode } from "@engram/sdk";
import { type BrowserParams, fieldColumn, type NoteKindFilter } from "./browser-params.js";
import type { NoteTypeLookup } from "./plain-text.js";

export type ColumnKind =
  | "field"
  | "type"
  | "card"
  | "tags"
  | "cards"
  | "deck"
  | "created"
  | "modified"
  | "due"
  | "interval"
  | "difficulty"
  | "stability"
  | "retrievability"
  | "lapses"
  | "reviews";

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

/** A column the user may choose, by its key in the URL (`cols=due,ivl,lapses`). */
export interface ChoosableColumn extends BrowserColumn {
  /** Shown in this mode only. */
  only?: BrowseMode;
}

export const choosableColumns: readonly ChoosableColumn[] = [
  { key: "type", label: "Type", kind: "type" },
  { key: "card", label: "Card", kind: "card", only: "cards" },
  { key: "tags", label: "Tags", kind: "tags", sort: "tags" },
  { key: "cards", label: "Cards", kind: "cards", only: "notes" },
  { key: "deck", label: "Deck", kind: "deck", sort: "deck" },
  { key: "created", label: "Created", kind: "created", sort: "created" },
  { key: "modified", label: "Modified", kind: "modified", sort: "modified" },
  { key: "due", label: "Due", kind: "due", sort: "due" },
  { key: "ivl", label: "Interval", kind: "interval", sort: "interval" },
  { key: "difficulty", label: "Difficulty", kind: "difficulty", sort: "difficulty" },
  { key: "stability", label: "Stability", kind: "stability", sort: "stability" },
  { key: "retrievability", label: "Retrievability", kind: "retrievability", sort: "retrievability" },
  { key: "lapses", label: "Lapses", kind: "lapses", sort: "lapses" },
  { key: "reviews", label: "Reviews", kind: "reviews", sort: "reviews" },
];

const defaultColumns: Record<BrowseMode, readonly string[]> = {
  notes: ["type", "tags", "cards", "modified"],
  cards: ["card", "due", "ivl", "modified"],
};

/** The chosen columns' keys for a mode: those in the URL that the mode shows, or its default. */
export function chosenColumns(params: Pick<BrowserParams, "cols" | "mode">): string[] {
  const known = new Map(choosableColumns.map((column) => [column.key, column]));
  const listed = params.cols
    .split(",")
    .map((key) => key.trim())
    .filter((key, index, all) => known.has(key) && all.indexOf(key) === index);
  const keys = listed.length > 0 ? listed : defaultColumns[params.mode];
  return keys.filter((key) => {
    const only = known.get(key)?.only;
    return only === undefined || only === params.mode;
  });
}

/** The `cols` param with a column shown or hidden. */
export function toggleColumn(params: Pick<BrowserParams, "cols" | "mode">, key: string): string {
  const keys = chosenColumns(params);
  const next = keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key];
  // In the chooser's order, so a link reads the same however the columns were picked.
  return choosableColumns
    .map((column) => column.key)
    .filter((k) => next.includes(k))
    .join(",");
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

/** The columns for a view: the sort field (or one per field when it shows one note type or kind), then the chosen ones. */
export function browserColumns(
  params: Pick<BrowserParams, "kind" | "noteType" | "cols" | "mode">,
  noteTypes: NoteTypeLookup,
): BrowserColumn[] {
  const fields: readonly (readonly [string, string])[] | undefined = params.kind
    ? kindFields[params.kind]
    : params.noteType
      ? noteTypes.get(params.noteType)?.fields.map((name) => [name, name] as const)
      : undefined;
  const chosen = chosenColumns(params).flatMap((key) => {
    const column = choosableColumns.find((c) => c.key === key);
    // One note type's fields say what the Type column would; its default leaves out the card count too.
    if (!column || (fields && (column.kind === "type" || (!params.cols && column.kind === "cards")))) return [];
    const { only: _only, ...shown } = column;
    return [shown];
  });
  if (!fields) {
    return [{ key: "sort_field", label: "Sort field", kind: "field", primary: true, sort: "sort_field" }, ...chosen];
  }
  return [
    ...fields.map(([field, label], index): BrowserColumn => {
      // The first field is the sort field: its header sorts by it, as plain text ignoring case.
      const key = index === 0 ? "sort_field" : fieldColumn(field);
      return { key, label, kind: "field", field, primary: index === 0, sort: key };
    }),
    ...chosen,
  ];
}
