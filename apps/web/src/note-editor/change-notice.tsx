/**
 * Someone else saved the note while it is open: who, and which fields. What
 * the user typed stays as it is; saving merges the two (use-merged-save.ts).
 */
import type { Note } from "@engram/sdk";
import { describeChanges, storedNote } from "./co-editing.js";
import type { NoteDraft } from "./note-draft.js";

interface ChangeNoticeProps {
  draft: NoteDraft;
  /** The version the draft builds on. */
  base: Note;
  /** The note as it is now. */
  latest: Note | undefined;
  authorOf: (note: Note) => string;
}

export function ChangeNotice({ draft, base, latest, authorOf }: ChangeNoticeProps) {
  const newer = latest && latest.version > base.version ? latest : null;
  const what = newer ? describeChanges(draft, storedNote(base), storedNote(newer)) : "";
  // The live region stays in the page, so its text appearing is announced.
  return (
    <div role="status" className={newer ? "change-notice" : undefined}>
      {newer ? (
        <p>
          <strong>{authorOf(newer)} changed this note while you were editing</strong>
          {what ? `: ${what}.` : "."} Your typing is kept; saving merges their change with yours.
        </p>
      ) : null}
    </div>
  );
}
