/** Search, tag, note type (a built-in kind or one of the deck's) and order: each change goes to the URL, which the list reads. */
import { noteSorts } from "@engram/sdk";
import { Search } from "lucide-react";
import { type RefObject, useEffect, useRef, useState } from "react";
import { type BrowserParams, kindLabels, type NoteKindFilter, sortLabels } from "./browser-params.js";

/** How the Order box names a column's order that a header set. */
function columnSortLabel({ sort, dir }: Pick<BrowserParams, "sort" | "dir">): string {
  const names: Record<string, string> = { sort_field: "Sort field", created: "Created", modified: "Modified" };
  const name = names[sort] ?? sort.replace(/^field:/, "");
  return `${name}, ${dir === "asc" ? "ascending" : "descending"}`;
}

interface Props {
  params: BrowserParams;
  /** The deck's own note types, offered beside the built-in kinds when there are any. */
  noteTypes: readonly { id: string; name: string }[];
  onChange: (patch: Partial<BrowserParams>) => void;
  searchRef: RefObject<HTMLInputElement | null>;
}

const typePrefix = "type:";

export function NoteFilters({ params, noteTypes, onChange, searchRef }: Props) {
  // The boxes keep what is typed and the URL follows. The URL sets a box only
  // while the user is not typing in it (Back, a shared link): replies to
  // earlier keystrokes arriving late must not undo later ones.
  const [search, setSearch] = useState(params.search);
  const [tag, setTag] = useState(params.tag);
  const tagRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (document.activeElement !== searchRef.current) setSearch(params.search);
  }, [params.search, searchRef]);
  useEffect(() => {
    if (document.activeElement !== tagRef.current) setTag(params.tag);
  }, [params.tag]);

  return (
    <search aria-label="Notes" className="note-filters">
      <div className="filter search-filter">
        <label htmlFor="note-search">Search notes</label>
        <div className="search-box">
          <Search aria-hidden="true" />
          <input
            ref={searchRef}
            id="note-search"
            type="search"
            value={search}
            placeholder='Words, "a phrase", -without'
            autoComplete="off"
            onChange={(event) => {
              setSearch(event.target.value);
              onChange({ search: event.target.value });
            }}
          />
        </div>
      </div>
      <div className="filter">
        <label htmlFor="note-tag">Tag</label>
        <input
          ref={tagRef}
          id="note-tag"
          value={tag}
          autoComplete="off"
          placeholder="Any tag"
          onChange={(event) => {
            // Tags have no spaces; the first word is the tag.
            const value = event.target.value.trimStart().split(/\s/)[0] ?? "";
            setTag(value);
            onChange({ tag: value });
          }}
        />
      </div>
      <div className="filter">
        <label htmlFor="note-kind">Note type</label>
        <select
          id="note-kind"
          value={params.noteType && !params.kind ? `${typePrefix}${params.noteType}` : params.kind}
          onChange={(event) => {
            const value = event.target.value;
            onChange(
              value.startsWith(typePrefix)
                ? { kind: "", noteType: value.slice(typePrefix.length) }
                : { kind: value as NoteKindFilter | "", noteType: "" },
            );
          }}
        >
          <option value="">All types</option>
          {(Object.keys(kindLabels) as NoteKindFilter[]).map((kind) => (
            <option key={kind} value={kind}>
              {kindLabels[kind]}
            </option>
          ))}
          {noteTypes.length > 0 ? (
            <optgroup label="This deck's note types">
              {noteTypes.map((type) => (
                <option key={type.id} value={`${typePrefix}${type.id}`}>
                  {type.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      <div className="filter">
        <label htmlFor="note-sort">Order</label>
        <select
          id="note-sort"
          value={params.sort}
          onChange={(event) => onChange({ sort: event.target.value as BrowserParams["sort"], dir: "asc" })}
        >
          {noteSorts.map((sort) => (
            <option key={sort} value={sort}>
              {sortLabels[sort]}
            </option>
          ))}
          {(noteSorts as readonly string[]).includes(params.sort) ? null : (
            <option value={params.sort}>{columnSortLabel(params)}</option>
          )}
        </select>
      </div>
    </search>
  );
}
