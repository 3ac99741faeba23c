import type { ReactNode } from "react";
import type { AnkiPreview, ImportPreview } from "../../transfer/transfer-protocol.js";
import { formatBytes, formatCount, formatLabel, isAnki, plural } from "./file-facts.js";
import { ImportNotices } from "./import-notices.js";
import { skipReason } from "./skip-reasons.js";

/** What is in the chosen file, before anything is sent: its format, decks, counts and what will be left out. */
export function ImportPreviewPanel({ file, preview }: { file: File; preview: ImportPreview }) {
  return (
    <section className="import-panel" aria-labelledby="import-file-title">
      <h2 id="import-file-title" className="import-file-name" tabIndex={-1}>
        {file.name}
      </h2>
      <p className="import-format">
        {formatLabel(preview)} · {formatBytes(file.size)}
      </p>
      {isAnki(preview) ? (
        <AnkiContents preview={preview as AnkiPreview} />
      ) : (
        <dl className="import-counts">
          <Count label="Rows">
            {formatCount(preview.format === "csv" || preview.format === "tsv" ? preview.rows : 0)}
          </Count>
        </dl>
      )}
    </section>
  );
}

function Count({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="import-count">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function AnkiContents({ preview }: { preview: AnkiPreview }) {
  return (
    <>
      <dl className="import-counts">
        <Count label="Notes">{formatCount(preview.notes)}</Count>
        <Count label="Cards">{formatCount(preview.cards)}</Count>
        <Count label="Images and sounds">{formatCount(preview.media)}</Count>
        <Count label="Reviews">{formatCount(preview.reviews)}</Count>
      </dl>
      <div className="import-lists">
        <div>
          <h3>{preview.deckNames.length === 1 ? "Deck" : "Decks"}</h3>
          <ul>
            {preview.deckNames.map((name) => (
              <li key={name}>{name.replaceAll("::", " › ")}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Note types</h3>
          <ul>
            {preview.noteTypes.map((type) => (
              <li key={type.name}>
                {type.name}{" "}
                <span className="muted">
                  ({type.kind === "cloze" ? "cloze, " : ""}
                  {plural(type.noteCount, "note", "notes")}
                  {type.kept ? ", kept as it is" : ""})
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <ImportNotices
        noteTypes={[]}
        droppedMarkup={preview.noteTypes
          .filter((type) => type.kept && type.droppedMarkup.length > 0)
          .map((type) => ({ noteType: type.name, markup: type.droppedMarkup }))}
        missingMedia={preview.missingMedia}
      />
      <SkippedList skipped={preview.skipped} intro="Left out, and why" />
    </>
  );
}

export function SkippedList({ skipped, intro }: { skipped: { reason: string; count: number }[]; intro: string }) {
  if (skipped.length === 0) return null;
  return (
    <div className="import-skipped">
      <h3>{intro}</h3>
      <ul>
        {skipped.map(({ reason, count }) => (
          <li key={reason}>
            <span className="import-skipped-count">{formatCount(count)}</span> {skipReason(reason)}
          </li>
        ))}
      </ul>
    </div>
  );
}
