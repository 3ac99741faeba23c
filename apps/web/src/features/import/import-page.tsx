/**
 * `/import`: a file in, a deck out (docs/product.md §2). The file is read, previewed
 * and imported in the transfer worker (use-import.ts); this screen shows what
 * it finds, asks where the notes go and reports progress.
 */
import { useQuery } from "@tanstack/react-query";
import { Upload, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { importErrorMessage } from "../../lib/error-messages.js";
import { useEngramQueries } from "../../session/factories.js";
import { ProgressReport } from "../../transfer/progress-report.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { CsvMapping } from "./csv-mapping.js";
import { DropZone } from "./drop-zone.js";
import { isAnki } from "./file-facts.js";
import { ImportPreviewPanel } from "./import-preview.js";
import { ImportSummaryPanel } from "./import-summary.js";
import { deckNameError, ImportTarget } from "./import-target.js";
import { hasFront, isCsv, useImport } from "./use-import.js";
import "./import.css";

export function ImportPage() {
  usePageTitle("Import");
  const decks = useQuery(useEngramQueries().decks.list());
  const writable = (decks.data ?? []).filter((deck) => deck.role !== "viewer");
  const flow = useImport(writable);
  const { step, error, notice, mapping, choice, checked } = flow;
  const previewHeading = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // The control that had focus goes away with each step; focus follows to what replaced it.
  useEffect(() => {
    if (step.name === "review") previewHeading.current?.querySelector<HTMLElement>("h2")?.focus();
    if (step.name === "importing") cancelButton.current?.focus();
  }, [step.name]);

  return (
    <div className="page import-page">
      <h1>Import</h1>
      <p className="lead">Bring in decks from Anki, or notes from a spreadsheet.</p>
      <div role="alert" className={error ? "error-summary" : undefined}>
        {error ? <p>{importErrorMessage(error)}</p> : null}
      </div>
      <p role="status" className={notice ? "notice" : "visually-hidden"}>
        {notice}
      </p>

      {step.name === "choose" || step.name === "reading" ? (
        <>
          <DropZone onFile={flow.choose} />
          {step.name === "reading" ? <Loading label={`Reading ${step.file.name}…`} /> : null}
        </>
      ) : null}

      {step.name === "review" || step.name === "importing" ? (
        <>
          <div ref={previewHeading} className="import-focus-target">
            <ImportPreviewPanel file={step.file} preview={step.preview} />
          </div>
          {step.name === "review" ? (
            <form
              className="import-form"
              aria-label="Import settings"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                flow.start(step.file, step.preview);
              }}
            >
              {isCsv(step.preview) ? (
                <CsvMapping
                  preview={step.preview}
                  mapping={mapping}
                  onMapping={flow.editMapping}
                  onOptions={(options) => flow.reRead(step.file, options)}
                  frontError={
                    checked && !hasFront(mapping) ? "Choose the column with the front of each note." : undefined
                  }
                />
              ) : null}
              <ImportTarget
                choice={choice}
                onChange={flow.setChoice}
                decks={writable}
                anki={isAnki(step.preview)}
                deckNames={"deckNames" in step.preview ? step.preview.deckNames : []}
                nameError={checked && choice.into === "new" ? deckNameError(choice.newDeckName) : undefined}
              />
              <div className="form-actions">
                <button type="submit" className="button primary" disabled={flow.reReading}>
                  <Upload aria-hidden="true" /> Import
                </button>
                <button type="button" className="button secondary" onClick={flow.startOver}>
                  Choose another file
                </button>
              </div>
            </form>
          ) : (
            <section className="import-panel" aria-label="Import progress">
              <ProgressReport progress={step.progress} label="Import progress" />
              <div className="form-actions">
                <button ref={cancelButton} type="button" className="button secondary" onClick={flow.cancel}>
                  <X aria-hidden="true" /> Cancel
                </button>
              </div>
            </section>
          )}
        </>
      ) : null}

      {step.name === "done" ? (
        <ImportSummaryPanel summary={step.summary} deckName={step.deckName} onAnother={flow.startOver} />
      ) : null}
    </div>
  );
}
