/**
 * The import screen's steps: a file is chosen, read into a preview, set up and
 * imported, with progress, cancel and the summary. Everything runs in the
 * transfer worker; this keeps what the screen shows.
 */
import { EngramError, type MyDeck } from "@engram/sdk";
import { useEffect, useRef, useState } from "react";
import { useEngramInvalidations } from "../../session/factories.js";
import { isCancelled } from "../../transfer/transfer-client.js";
import type {
  ColumnMapping,
  CsvOptions,
  CsvPreview,
  ImportChoices,
  ImportPreview,
  ImportSummary,
  Progress,
} from "../../transfer/transfer-protocol.js";
import { useTransfer } from "../../transfer/use-transfer.js";
import { isAnki, maxImportBytes } from "./file-facts.js";
import { canKeepTree, deckNameError, type TargetChoice } from "./target-choice.js";

export type Step =
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
  includePresets: false,
  deckTree: true,
};

export const isCsv = (preview: ImportPreview): preview is CsvPreview =>
  preview.format === "csv" || preview.format === "tsv";
export const hasFront = (mapping: ColumnMapping) => mapping.front !== undefined || mapping.text !== undefined;

/** `writable`: the decks the user may add notes to. */
export function useImport(writable: MyDeck[]) {
  const transfer = useTransfer();
  const invalidations = useEngramInvalidations();
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

  // Leaving the screen mid-import abandons it: nothing half-imported stays behind.
  useEffect(() => () => importing.current?.abort(), []);

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
      ...(isAnki(preview)
        ? {
            includeSchedule: choice.includeSchedule,
            includePresets: choice.includePresets,
            deckTree: choice.deckTree && canKeepTree(choice, writable, "deckNames" in preview ? preview.deckNames : []),
          }
        : {}),
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
          void invalidations.imported();
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

  const editMapping = (next: ColumnMapping) => {
    setMapping(next);
    setMappingEdited(true);
  };
  const cancel = () => importing.current?.abort();

  return {
    step,
    error,
    notice,
    mapping,
    choice,
    setChoice,
    checked,
    reReading,
    choose,
    reRead,
    editMapping,
    start,
    cancel,
    startOver,
  };
}
