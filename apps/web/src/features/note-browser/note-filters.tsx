/** Search (Anki's syntax), tag, note type (a built-in kind or one of the deck's) and order: each change goes to the URL, which the list reads. */
import { parseSearch, SearchSyntaxError } from "@engram/core";
import { noteSorts } from "@engram/sdk";
import { Search } from "lucide-react";
import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { type BrowserParams, kindLabels, type NoteKindFilter, sortLabels } from "./browser-params.js";
import { SearchHelp } from "./search-help.js";

/** Why a search (Anki's syntax) does not parse, with where; null when it does. */
function syntaxProblem(text: string): string | null {
  try {
    parseSearch(text);
    return null;
  } catch (error) {
    if (!(error instanceof SearchSyntaxError)) throw error;
    return `${error.message[0]?.toUpperCase() ?? ""}${error.message.slice(1)} (at character ${error.at + 1}).`;
  }
}

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
  // A search that does not parse stays in the box with its problem beside it;
  // the URL, and so the list, keeps the last one that did.
  const problem = useMemo(() => syntaxProblem(search), [search]);
  useEffect(() => {
    if (document.activeElement !== searchRef.current) setSearch(params.search);
  }, [params.search, searchRef]);
  useEffect(() => {
    if (document.activeElement !== tagRef.current) setTag(params.tag);
  }, [params.tag]);

  return (
    <search aria-label="Notes" className="note-filters">
      <div className="filter search-filter">
        <div className="search-label-row">
          <label htmlFor="note-search">Search notes</label>
          <SearchHelp />
        </div>
        <div className="search-box">
          <Search aria-hidden="true" />
          <input
            ref={searchRef}
            id="note-search"
            type="search"
            value={search}
            placeholder='mito*, "a phrase", tag:x, -without'
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "note-search-problem" : undefined}
            onChange={(event) => {
              const value = event.target.value;
              setSearch(value);
              if (syntaxProblem(value) === null) onChange({ search: value });
            }}
          />
        </div>
        {problem ? (
          <p id="note-search-problem" className="search-problem">
            {problem}
          </p>
        ) : null}
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
