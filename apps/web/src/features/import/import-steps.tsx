/**
 * The import screen once a file is read: what it holds and where it goes, the
 * import's progress, then what it did. Loaded with the first file, so a first
 * visit downloads only the drop zone.
 */
import type { MyDeck } from "@engram/sdk";
import { Upload, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { ProgressReport } from "../../transfer/progress-report.js";
import { CsvMapping } from "./csv-mapping.js";
import { isAnki } from "./file-facts.js";
import { ImportPreviewPanel } from "./import-preview.js";
import { ImportSummaryPanel } from "./import-summary.js";
import { ImportTarget } from "./import-target.js";
import { deckNameError } from "./target-choice.js";
import { hasFront, isCsv, type useImport } from "./use-import.js";

type Flow = ReturnType<typeof useImport>;

export function ImportSteps({ flow, writable }: { flow: Flow; writable: MyDeck[] }) {
  const { step, mapping, choice, checked } = flow;
  const previewHeading = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // The control that had focus goes away with each step; focus follows to what replaced it.
  useEffect(() => {
    if (step.name === "review") previewHeading.current?.querySelector<HTMLElement>("h2")?.focus();
    if (step.name === "importing") cancelButton.current?.focus();
  }, [step.name]);

  if (step.name === "done") {
    return <ImportSummaryPanel summary={step.summary} deckName={step.deckName} onAnother={flow.startOver} />;
  }
  if (step.name !== "review" && step.name !== "importing") return null;
  return (
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
              frontError={checked && !hasFront(mapping) ? "Choose the column with the front of each note." : undefined}
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
  );
}
