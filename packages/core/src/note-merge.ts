/**
 * Three-way merge of a note edited by two people at once (docs/product.md §2):
 * `base` is the note as the editor loaded it, `mine` what the user is saving,
 * `theirs` the note as someone else saved it meanwhile.
 */

/** The parts of a note two editors can both change: fields by name (as HTML) and tags. */
export interface MergeableNote {
  fields: Readonly<Record<string, string>>;
  tags: readonly string[];
}

export interface NoteMerge {
  /**
   * Every field of either side. A field changed by one side has that side's
   * value; a conflicting field keeps mine, so nothing typed is lost until the
   * user chooses.
   */
  fields: Record<string, string>;
  /** Base's tags with both sides' additions and removals applied. */
  tags: string[];
  /** Fields both sides changed, to different values, in mine's order. */
  conflicts: string[];
}

/** Merges field by field: a field only one side changed takes that change; both changed alike is no conflict. */
export function mergeNote(base: MergeableNote, mine: MergeableNote, theirs: MergeableNote): NoteMerge {
  const names = [...new Set([...Object.keys(mine.fields), ...Object.keys(theirs.fields)])];
  const fields: Record<string, string> = {};
  const conflicts: string[] = [];
  for (const name of names) {
    const was = base.fields[name] ?? "";
    const mineValue = mine.fields[name] ?? "";
    const theirValue = theirs.fields[name] ?? "";
    if (mineValue === was) fields[name] = theirValue;
    else if (theirValue === was || theirValue === mineValue) fields[name] = mineValue;
    else {
      fields[name] = mineValue;
      conflicts.push(name);
    }
  }
  return { fields, tags: mergeTags(base.tags, mine.tags, theirs.tags), conflicts };
}

/**
 * Tags as a set: what either side added is added, what either side removed is
 * removed (a tag one side removed and the other kept stays removed). Mine's
 * order first, then theirs' additions.
 */
export function mergeTags(base: readonly string[], mine: readonly string[], theirs: readonly string[]): string[] {
  const had = new Set(base);
  const removed = new Set(base.filter((tag) => !mine.includes(tag) || !theirs.includes(tag)));
  const merged = [...mine, ...theirs.filter((tag) => !had.has(tag))].filter((tag) => !removed.has(tag));
  return [...new Set(merged)];
}
