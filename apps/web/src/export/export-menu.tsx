/**
 * "Export" on the deck screen: the deck as an Anki package or CSV, made on the
 * device in the transfer worker and downloaded. A small menu button of its own
 * (arrow keys, Home/End, Escape), so the deck screen carries no menu library.
 */
import { ChevronDown, Download } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../lib/error-messages.js";
import { saveFile } from "../transfer/download.js";
import type { ExportChoices } from "../transfer/transfer-protocol.js";
import { useTransfer } from "../transfer/use-transfer.js";
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
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const focusItem = (index: number) => {
    const count = choices.length;
    itemRefs.current[((index % count) + count) % count]?.focus();
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    itemRefs.current[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Every key stays here: letters are not the deck screen's single-key shortcuts while the menu is open.
    event.stopPropagation();
    const current = itemRefs.current.indexOf(document.activeElement as HTMLButtonElement);
    const target =
      event.key === "ArrowDown"
        ? current + 1
        : event.key === "ArrowUp"
          ? current - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? choices.length - 1
              : null;
    if (target !== null) {
      event.preventDefault();
      focusItem(target);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  };

  const exportAs = (choice: ExportChoices) => {
    close(true);
    setState({ status: "working" });
    transfer.exportDeck(deckId, choice).then(
      (file) => {
        saveFile(file);
        setState({ status: "saved", name: file.name });
      },
      (error: unknown) => setState({ status: "failed", error }),
    );
  };

  const working = state.status === "working";
  return (
    <div className="export" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="button secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={working || undefined}
        // Not disabled while working: the button keeps focus, and a second export waits for the first.
        aria-disabled={working || undefined}
        onClick={() => {
          if (!working) setOpen((value) => !value);
        }}
        onKeyDown={(event) => {
          if (!working && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Download aria-hidden="true" /> {working ? "Exporting…" : "Export"}
        <ChevronDown aria-hidden="true" />
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label="Export as" className="export-menu" onKeyDown={onMenuKey}>
          {choices.map(({ label, choice }, index) => (
            <button
              key={label}
              ref={(element) => {
                itemRefs.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              onClick={() => exportAs(choice)}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
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
