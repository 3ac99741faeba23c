/** "Export" on the deck screen: the deck as an Anki package or CSV, made on the device and downloaded. */
import * as Menu from "@radix-ui/react-dropdown-menu";
import { ChevronDown, Download } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../errors/messages.js";
import { saveFile } from "../import/download.js";
import type { ExportChoices } from "../import/transfer-protocol.js";
import { useTransfer } from "../import/use-transfer.js";
import "./export-menu.css";

const choices: { label: string; choice: ExportChoices }[] = [
  { label: "Anki package (.apkg)", choice: { format: "apkg" } },
  { label: "Anki package with my schedule and history", choice: { format: "apkg", includeSchedule: true } },
  { label: "CSV", choice: { format: "csv" } },
];

type State =
  | { status: "idle" }
  | { status: "working" }
  | { status: "saved"; name: string }
  | { status: "failed"; error: unknown };

export function ExportMenu({ deckId }: { deckId: string }) {
  const transfer = useTransfer();
  const [state, setState] = useState<State>({ status: "idle" });

  const exportAs = (choice: ExportChoices) => {
    setState({ status: "working" });
    transfer.exportDeck(deckId, choice).then(
      (file) => {
        saveFile(file);
        setState({ status: "saved", name: file.name });
      },
      (error: unknown) => setState({ status: "failed", error }),
    );
  };

  return (
    <>
      <Menu.Root>
        <Menu.Trigger asChild>
          <button
            type="button"
            className="button secondary"
            disabled={state.status === "working"}
            aria-busy={state.status === "working" || undefined}
          >
            <Download aria-hidden="true" /> {state.status === "working" ? "Exporting…" : "Export"}
            <ChevronDown aria-hidden="true" />
          </button>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content
            className="export-menu"
            align="start"
            sideOffset={4}
            // Letters pick menu items here, not the deck screen's single-key shortcuts.
            onKeyDown={(event) => {
              if (event.key.length === 1) event.stopPropagation();
            }}
          >
            {choices.map(({ label, choice }) => (
              <Menu.Item key={label} className="menu-item" onSelect={() => exportAs(choice)}>
                {label}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <span role="status" className="visually-hidden">
        {state.status === "working"
          ? "Preparing the export…"
          : state.status === "saved"
            ? `Downloading ${state.name}.`
            : ""}
      </span>
      {state.status === "failed" ? (
        <p role="alert" className="field-error export-error">
          {errorMessage(state.error)}
        </p>
      ) : null}
    </>
  );
}
