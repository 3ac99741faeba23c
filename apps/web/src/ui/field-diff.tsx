import { diffWords } from "diff";
import { fieldText } from "../lib/field-text.js";
import "./field-diff.css";

/** How one field's text changed, as runs of kept, added and removed words. */
export interface TextChange {
  kind: "same" | "added" | "removed";
  text: string;
}

/**
 * The word-level change from one version of a field to the next, read as plain
 * text (markup and cloze markers stripped), so a reader sees what was said,
 * not how the HTML moved. `null` when the words are the same.
 */
export function textChanges(before: string, after: string): TextChange[] | null {
  const from = fieldText(before);
  const to = fieldText(after);
  if (from === to) return null;
  return diffWords(from, to).map((part) => ({
    kind: part.added ? "added" : part.removed ? "removed" : "same",
    text: part.value,
  }));
}

interface FieldDiffProps {
  /** The field's HTML before the change; undefined when the field did not exist. */
  before: string | undefined;
  /** The field's HTML after the change; undefined when the field was removed. */
  after: string | undefined;
}

/** One field's change: removed words struck through, added words underlined, each also named for screen readers. */
export function FieldDiff({ before = "", after = "" }: FieldDiffProps) {
  const changes = textChanges(before, after);
  if (changes === null) {
    return <p className="field-diff field-diff-quiet">{before === after ? "Unchanged" : "Formatting changed"}</p>;
  }
  return (
    <p className="field-diff">
      {changes.map((change, index) => (
        // Runs never reorder, so their place is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional
        <Run key={index} change={change} />
      ))}
    </p>
  );
}

function Run({ change }: { change: TextChange }) {
  if (change.kind === "same") return <span>{change.text}</span>;
  const Tag = change.kind === "added" ? "ins" : "del";
  return (
    <Tag>
      <span className="visually-hidden">{change.kind}: </span>
      {change.text}
    </Tag>
  );
}
