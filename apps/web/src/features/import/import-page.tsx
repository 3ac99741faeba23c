/**
 * `/import`: a file in, a deck out (docs/product.md §2). The file is read, previewed
 * and imported in the transfer worker (use-import.ts); this screen shows what
 * it finds, asks where the notes go and reports progress (import-steps.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { importErrorMessage } from "../../lib/error-messages.js";
import { preloadable } from "../../lib/preloadable.js";
import { useEngramQueries } from "../../session/factories.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { DropZone } from "./drop-zone.js";
import { useImport } from "./use-import.js";
import "./import.css";

const ImportSteps = preloadable(() => import("./import-steps.js").then((module) => module.ImportSteps));

export function ImportPage() {
  usePageTitle("Import");
  const decks = useQuery(useEngramQueries().decks.list());
  const writable = (decks.data ?? []).filter((deck) => deck.role !== "viewer");
  const flow = useImport(writable);
  const { step, error, notice } = flow;

  // The steps' code arrives while the worker reads the file.
  useEffect(() => {
    if (step.name !== "choose") ImportSteps.preload().catch(() => undefined);
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
      ) : (
        <Suspense fallback={<Loading />}>
          <ImportSteps flow={flow} writable={writable} />
        </Suspense>
      )}
    </div>
  );
}
