/**
 * "Export" on the deck screen: the deck as an Anki package or CSV, made on the
 * device in the transfer worker and downloaded.
 */
import { ChevronDown, Download } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../lib/error-messages.js";
import { onDemand } from "../lib/preloadable.js";
import { useEngram } from "../session/engram-context.js";
import { saveFile } from "../transfer/download.js";
import type { ExportChoices } from "../transfer/transfer-protocol.js";
import { DeferredMenu } from "../ui/deferred-menu.js";
import "./export-menu.css";

const ExportDropdown = onDemand(() => import("./export-dropdown.js").then((module) => module.ExportDropdown));

type State =
  | { status: "idle" }
  | { status: "working" }
  | { status: "saved"; name: string }
  | { status: "failed"; error: unknown };

export function ExportMenu({ deckId }: { deckId: string }) {
  const engram = useEngram();
  const [state, setState] = useState<State>({ status: "idle" });
  const [open, setOpen] = useState(false);

  const exportAs = (choice: ExportChoices) => {
    setState({ status: "working" });
    // The transfer worker's client loads with the first export, not with the deck screen.
    import("../transfer/transfer-client.js")
      .then(({ transferClientFor }) => transferClientFor(engram).exportDeck(deckId, choice))
      .then(
        (file) => {
          saveFile(file);
          setState({ status: "saved", name: file.name });
        },
        (error: unknown) => setState({ status: "failed", error }),
      );
  };

  const working = state.status === "working";
  return (
    <div className="export">
      <DeferredMenu
        load={ExportDropdown.preload}
        trigger={
          <button
            type="button"
            className="button secondary"
            aria-busy={working || undefined}
            // Not disabled while working: the button keeps focus.
            aria-disabled={working || undefined}
          >
            <Download aria-hidden="true" /> {working ? "Exporting…" : "Export"}
            <ChevronDown aria-hidden="true" />
          </button>
        }
      >
        {(press, trigger) => (
          <ExportDropdown
            trigger={trigger}
            press={press}
            open={open}
            // A second export waits for the first.
            onOpenChange={(next) => setOpen(next && !working)}
            onChoose={exportAs}
          />
        )}
      </DeferredMenu>
      <span role="status" className="visually-hidden">
        {working ? "Preparing the export…" : state.status === "saved" ? `Downloading ${state.name}.` : ""}
      </span>
      {state.status === "failed" ? (
        <p role="alert" className="field-error export-error">
          {errorMessage(state.error)}
        </p>
      ) : null}
    </div>
  );
}
