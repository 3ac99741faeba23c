/**
 * One version of a note as the history shows it: who made it and when, and
 * what it changed — each field as a word diff against the version before,
 * tags added and removed (docs/product.md §3, "Note history").
 */
import type { NoteHistoryAction, NoteHistoryEntry } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../session/factories.js";
import { FieldDiff } from "../ui/field-diff.js";

/** The built-in kinds' fields in the order the editor shows them. */
const builtInOrder = ["front", "back", "text", "extra", "header", "image", "occlusions", "back_extra", "comments"];

const fieldLabels: Record<string, string> = {
  front: "Front",
  back: "Back",
  text: "Text",
  extra: "Extra",
  image: "Image",
  occlusions: "Occlusions",
  header: "Header",
  back_extra: "Back Extra",
  comments: "Comments",
};

const actionLabels: Record<NoteHistoryAction, string> = {
  create: "Added",
  edit: "Edited",
  move: "Moved to this deck",
  delete: "Deleted",
  restore: "Restored after deletion",
  revert: "Restored an earlier version",
};

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const nameOf = (person: { name: string | null }) => person.name || "A member";

/** "Edited by Ed", "Restored version 2 by Ed", with the time as a <time>. */
export function VersionSummary({ entry }: { entry: NoteHistoryEntry }) {
  const action =
    entry.action === "revert" && entry.revertedFrom !== null
      ? `Restored version ${entry.revertedFrom}`
      : actionLabels[entry.action];
  return (
    <p className="version-summary">
      <span className="version-action">
        {action}
        {entry.author ? ` by ${nameOf(entry.author)}` : ""}
      </span>
      {entry.coAuthor ? <span className="version-co-author">suggested by {nameOf(entry.coAuthor)}</span> : null}
      <time dateTime={entry.createdAt}>{timeFormat.format(new Date(entry.createdAt))}</time>
    </p>
  );
}

/**
 * A version's field names in the note's order: a custom note's as its note
 * type lists them, the built-in kinds' as the editor shows them (stored
 * fields come back in no particular order); names no longer in the type last.
 */
export function useFieldNames(entry: NoteHistoryEntry): string[] {
  const custom = entry.kind === "custom";
  const types = useQuery({ ...useEngramQueries().noteTypes.usable(entry.deckId), enabled: custom });
  const order = custom ? (types.data?.find((type) => type.id === entry.noteTypeId)?.fields ?? []) : builtInOrder;
  const names = [...new Set([...Object.keys(entry.fields), ...Object.keys(entry.previousFields ?? {})])];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The fields a version changed: for the first version the caller sees, those it filled. */
function changedFields(entry: NoteHistoryEntry, names: string[]): string[] {
  const before = entry.previousFields ?? {};
  if (entry.previousFields === null) return names.filter((name) => (entry.fields[name] ?? "") !== "");
  return names.filter((name) => entry.fields[name] !== before[name]);
}

export function VersionChange({ entry }: { entry: NoteHistoryEntry }) {
  const names = useFieldNames(entry);
  if (entry.action === "delete" || entry.action === "move") return null;
  const before = entry.previousFields ?? {};
  const fields = changedFields(entry, names);
  const previousTags = entry.previousTags ?? [];
  const added = entry.tags.filter((tag) => !previousTags.includes(tag));
  const removed = previousTags.filter((tag) => !entry.tags.includes(tag));
  if (fields.length === 0 && added.length === 0 && removed.length === 0) {
    return <p className="version-quiet">No change to the text or tags.</p>;
  }
  return (
    <dl className="version-change">
      {fields.map((name) => (
        <div key={name} className="version-field">
          <dt>{fieldLabels[name] ?? name}</dt>
          <dd>
            <FieldDiff before={before[name]} after={entry.fields[name]} />
          </dd>
        </div>
      ))}
      {added.length > 0 || removed.length > 0 ? (
        <div className="version-field">
          <dt>Tags</dt>
          <dd className="version-tags">
            {added.map((tag) => (
              <ins key={`+${tag}`} className="tag">
                <span className="visually-hidden">added: </span>
                {tag}
              </ins>
            ))}
            {removed.map((tag) => (
              <del key={`-${tag}`} className="tag">
                <span className="visually-hidden">removed: </span>
                {tag}
              </del>
            ))}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
