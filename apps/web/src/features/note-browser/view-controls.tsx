/** Notes | Cards, and which columns show: both go to the URL, which the list reads. */
import type { BrowseMode } from "@engram/sdk";
import { Columns3 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { BrowserParams } from "./browser-params.js";
import { choosableColumns, chosenColumns, toggleColumn } from "./columns.js";

interface Props {
  params: Pick<BrowserParams, "mode" | "cols">;
  onChange: (patch: Partial<BrowserParams>) => void;
}

const modes: readonly [BrowseMode, string][] = [
  ["notes", "Notes"],
  ["cards", "Cards"],
];

export function ViewControls({ params, onChange }: Props) {
  const chosen = chosenColumns(params);
  const menuRef = useRef<HTMLDetailsElement>(null);
  // The boxes are in the page only while the menu is open, so its labels name nothing else's.
  const [open, setOpen] = useState(false);
  // The menu closes on Escape and on a click outside it, as menus do.
  useEffect(() => {
    const close = (event: Event) => {
      const menu = menuRef.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !menu.contains(event.target as Node)) {
        menu.open = false;
        if (event instanceof KeyboardEvent) menu.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, []);

  return (
    <div className="view-controls">
      {/* biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons reads as one choice. */}
      <div role="group" aria-label="Show" className="mode-toggle">
        {modes.map(([mode, label]) => (
          <button
            key={mode}
            type="button"
            className="mode-button"
            aria-pressed={params.mode === mode}
            // A mode's columns differ: its own default until the user picks again.
            onClick={() => params.mode !== mode && onChange({ mode, cols: "" })}
          >
            {label}
          </button>
        ))}
      </div>
      <details ref={menuRef} className="column-menu" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="button secondary">
          <Columns3 aria-hidden="true" /> Columns
        </summary>
        {open ? (
          <fieldset className="column-menu-list">
            <legend className="visually-hidden">Columns shown</legend>
            {choosableColumns
              .filter((column) => column.only === undefined || column.only === params.mode)
              .map((column) => (
                <label key={column.key} className="column-choice">
                  <input
                    type="checkbox"
                    checked={chosen.includes(column.key)}
                    onChange={() => onChange({ cols: toggleColumn(params, column.key) })}
                  />
                  {column.label}
                </label>
              ))}
          </fieldset>
        ) : null}
      </details>
    </div>
  );
}
