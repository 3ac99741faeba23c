import { CheckCircle2, FolderOpen, GraduationCap } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "../../lib/navigation.js";
import type { ImportSummary } from "../../transfer/transfer-protocol.js";
import { formatCount } from "./file-facts.js";
import { ImportNotices } from "./import-notices.js";
import { SkippedList } from "./import-preview.js";

/** What the import did, with the two places people go next. */
export function ImportSummaryPanel({
  summary,
  deckName,
  onAnother,
}: {
  summary: ImportSummary;
  deckName: string;
  onAnother: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: the result takes it, so it is read out.
  useEffect(() => headingRef.current?.focus(), []);
  const rows: [string, number][] = [
    ["Notes added", summary.notesAdded],
    ["Notes updated", summary.notesUpdated],
    ["Notes skipped", summary.notesSkipped],
    ["Cards", summary.cards],
    ["Images and sounds", summary.media],
    ["Reviews imported", summary.reviews],
  ];
  return (
    <section className="import-panel import-summary" aria-labelledby="import-summary-title">
      <h2 id="import-summary-title" ref={headingRef} tabIndex={-1}>
        <CheckCircle2 aria-hidden="true" /> Imported into {deckName}
      </h2>
      <dl className="import-counts">
        {rows.map(([label, count]) => (
          <div key={label} className="import-count">
            <dt>{label}</dt>
            <dd>{formatCount(count)}</dd>
          </div>
        ))}
      </dl>
      <ImportNotices
        noteTypes={summary.noteTypes}
        droppedMarkup={summary.droppedMarkup}
        missingMedia={summary.missingMedia}
        missingMediaCount={summary.missingMediaCount}
      />
      <SkippedList skipped={summary.skipped} intro="Left out, and why" />
      <div className="form-actions">
        <Link className="button primary" to={`/decks/${summary.deckId}`}>
          <FolderOpen aria-hidden="true" /> Open deck
        </Link>
        <Link className="button secondary" to={`/decks/${summary.deckId}/study`}>
          <GraduationCap aria-hidden="true" /> Study now
        </Link>
        <button type="button" className="button secondary" onClick={onAnother}>
          Import another file
        </button>
      </div>
    </section>
  );
}
