/**
 * `/import`: a file in, a deck out (PRODUCT §2). The file is read, previewed
 * and imported in the transfer worker; this screen only shows what it finds,
 * asks where the notes go and reports progress.
 */
import { EngramError } from "@engram/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Upload, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { importErrorMessage } from "../errors/messages.js";
import { useEngramQueries } from "../session/factories.js";
import { Loading } from "../shell/loading.js";
import { usePageTitle } from "../shell/page-title.js";
import { CsvMapping } from "./csv-mapping.js";
import { DropZone } from "./drop-zone.js";
import { isAnki, maxImportBytes } from "./file-facts.js";
import { ImportPreviewPanel } from "./import-preview.js";
import { ProgressReport } from "./import-progress.js";
import { ImportSummaryPanel } from "./import-summary.js";
import { deckNameError, ImportTarget, type TargetChoice } from "./import-target.js";
import { isCancelled } from "./transfer-client.js";
import type {
  ColumnMapping,
  CsvOptions,
  CsvPreview,
  ImportChoices,
  ImportPreview,
  ImportSummary,
  Progress,
} from "./transfer-protocol.js";
import { useTransfer } from "./use-transfer.js";
import "./import.css";

type Step =
  | { name: "choose" }
  | { name: "reading"; file: File }
  | { name: "review"; file: File; preview: ImportPreview }
  | { name: "importing"; file: File; preview: ImportPreview; progress: Progress }
  | { name: "done"; summary: ImportSummary; deckName: string };

const startChoice: TargetChoice = {
  into: "new",
  newDeckName: "",
  deckId: "",
  existing: "skip",
  includeSchedule: false,
};

const isCsv = (preview: ImportPreview): preview is CsvPreview => preview.format === "csv" || preview.format === "tsv";
const hasFront = (mapping: ColumnMapping) => mapping.front !== undefined || mapping.text !== undefined;

export function ImportPage() {
  usePageTitle("Import");
  const transfer = useTransfer();
  const queryClient = useQueryClient();
  const decks = useQuery(useEngramQueries().decks.list());
  const writable = (decks.data ?? []).filter((deck) => deck.role !== "viewer");

  const [step, setStep] = useState<Step>({ name: "choose" });
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState("");
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [mappingEdited, setMappingEdited] = useState(false);
  const [choice, setChoice] = useState<TargetChoice>(startChoice);
  const [checked, setChecked] = useState(false);
  const [reReading, setReReading] = useState(false);
  // Answers for a file the user has since replaced are dropped.
  const currentFile = useRef<File | null>(null);
  const importing = useRef<AbortController | null>(null);
  const previewHeading = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // Leaving the screen mid-import abandons it: nothing half-imported stays behind.
  useEffect(() => () => importing.current?.abort(), []);

  useEffect(() => {
    if (step.name === "review") previewHeading.current?.querySelector<HTMLElement>("h2")?.focus();
    if (step.name === "importing") cancelButton.current?.focus();
  }, [step.name]);

  const choose = (file: File) => {
    setError(null);
    setNotice("");
    setChecked(false);
    if (file.size > maxImportBytes) {
      currentFile.current = null;
      setStep({ name: "choose" });
      setError(new EngramError("quota-exceeded", "The file is over the import limit."));
      return;
    }
    currentFile.current = file;
    setStep({ name: "reading", file });
    transfer.preview(file).then(
      (preview) => {
        if (currentFile.current !== file) return;
        setMapping(isCsv(preview) ? preview.mapping : {});
        setMappingEdited(false);
        setChoice((current) => ({
          ...startChoice,
          existing: current.existing,
          newDeckName: preview.suggestedDeckName,
          deckId: current.deckId,
        }));
        setStep({ name: "review", file, preview });
      },
      (failure: unknown) => {
        if (currentFile.current !== file) return;
        setStep({ name: "choose" });
        setError(failure);
      },
    );
  };

  const reRead = (file: File, options: CsvOptions) => {
    setReReading(true);
    transfer.preview(file, options).then(
      (preview) => {
        setReReading(false);
        if (currentFile.current !== file || !isCsv(preview)) return;
        const sameShape =
          step.name === "review" && isCsv(step.preview) && step.preview.columns.length === preview.columns.length;
        if (!(mappingEdited && sameShape)) setMapping(preview.mapping);
        setStep({ name: "review", file, preview });
      },
      (failure: unknown) => {
        setReReading(false);
        setError(failure);
      },
    );
  };

  const start = (file: File, preview: ImportPreview) => {
    setChecked(true);
    setNotice("");
    const nameError = choice.into === "new" ? deckNameError(choice.newDeckName) : undefined;
    const mappingError = isCsv(preview) && !hasFront(mapping);
    if (nameError || mappingError) {
      document.querySelector<HTMLElement>(nameError ? "[data-field=newDeckName]" : "[data-field=front]")?.focus();
      return;
    }
    setError(null);
    const target: ImportChoices["target"] =
      choice.into === "new" ? { newDeckName: choice.newDeckName.trim() } : { deckId: choice.deckId };
    const deckName =
      choice.into === "new"
        ? choice.newDeckName.trim()
        : (writable.find((deck) => deck.id === choice.deckId)?.name ?? "");
    const options: ImportChoices = {
      target,
      existing: choice.existing,
      ...(isAnki(preview) ? { includeSchedule: choice.includeSchedule } : {}),
      ...(isCsv(preview) ? { csv: { mapping, delimiter: preview.delimiter, hasHeader: preview.hasHeader } } : {}),
    };
    const controller = new AbortController();
    importing.current = controller;
    setStep({ name: "importing", file, preview, progress: { phase: "reading", done: 0, total: 0 } });
    transfer
      .importDeck(file, options, {
        signal: controller.signal,
        onProgress: (progress) =>
          setStep((current) => (current.name === "importing" ? { ...current, progress } : current)),
      })
      .then(
        (summary) => {
          importing.current = null;
          // New deck, new notes, new cards due: every list may have changed.
          void queryClient.invalidateQueries();
          setStep({ name: "done", summary, deckName });
        },
        (failure: unknown) => {
          importing.current = null;
          setStep({ name: "review", file, preview });
          if (isCancelled(failure)) setNotice("Import cancelled. Nothing was added.");
          else setError(failure);
        },
      );
  };

  const startOver = () => {
    currentFile.current = null;
    setError(null);
    setNotice("");
    setStep({ name: "choose" });
  };

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
          <DropZone onFile={choose} />
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
                start(step.file, step.preview);
              }}
            >
              {isCsv(step.preview) ? (
                <CsvMapping
                  preview={step.preview}
                  mapping={mapping}
                  onMapping={(next) => {
                    setMapping(next);
                    setMappingEdited(true);
                  }}
                  onOptions={(options) => reRead(step.file, options)}
                  frontError={
                    checked && !hasFront(mapping) ? "Choose the column with the front of each note." : undefined
                  }
                />
              ) : null}
              <ImportTarget
                choice={choice}
                onChange={setChoice}
                decks={writable}
                anki={isAnki(step.preview)}
                nameError={checked && choice.into === "new" ? deckNameError(choice.newDeckName) : undefined}
              />
              <div className="form-actions">
                <button type="submit" className="button primary" disabled={reReading}>
                  <Upload aria-hidden="true" /> Import
                </button>
                <button type="button" className="button secondary" onClick={startOver}>
                  Choose another file
                </button>
              </div>
            </form>
          ) : (
            <section className="import-panel" aria-label="Import progress">
              <ProgressReport progress={step.progress} label="Import progress" />
              <div className="form-actions">
                <button
                  ref={cancelButton}
                  type="button"
                  className="button secondary"
                  onClick={() => importing.current?.abort()}
                >
                  <X aria-hidden="true" /> Cancel
                </button>
              </div>
            </section>
          )}
        </>
      ) : null}

      {step.name === "done" ? (
        <ImportSummaryPanel summary={step.summary} deckName={step.deckName} onAnother={startOver} />
      ) : null}
    </div>
  );
}
