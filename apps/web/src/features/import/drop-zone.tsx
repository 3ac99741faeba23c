import { FileUp } from "lucide-react";
import { type DragEvent, useRef, useState } from "react";
import { acceptedExtensions, formatBytes, maxImportBytes } from "./file-facts.js";

/**
 * A file button that files can also be dropped on: Enter or Space opens the
 * picker like any button, and a mouse user can drag a file onto it.
 */
export function DropZone({ onFile, disabled = false }: { onFile: (file: File) => void; disabled?: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };

  return (
    <>
      <button
        type="button"
        className={`drop-zone${over ? " is-over" : ""}`}
        disabled={disabled}
        aria-describedby="drop-zone-hint"
        onClick={() => inputRef.current?.click()}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <FileUp aria-hidden="true" className="drop-zone-icon" />
        <span className="drop-zone-title">Choose a file to import</span>
        <span className="drop-zone-or">or drop it here</span>
      </button>
      <p id="drop-zone-hint" className="field-hint drop-zone-hint">
        Anki packages (.apkg, .colpkg) or spreadsheets saved as .csv or .tsv, up to {formatBytes(maxImportBytes)}.
      </p>
      <input
        ref={inputRef}
        type="file"
        accept={acceptedExtensions}
        hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // Cleared so choosing the same file again still fires a change.
          event.currentTarget.value = "";
          if (file) onFile(file);
        }}
      />
    </>
  );
}
