/** Asks before unsaved changes are thrown away; Escape or "Keep editing" goes back to the note. */
import { Dialog } from "../ui/dialog.js";

export function DiscardDialog({
  adding,
  onKeep,
  onDiscard,
}: {
  adding: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  return (
    <Dialog
      role="alertdialog"
      title={adding ? "Discard this note?" : "Discard your changes?"}
      description={adding ? "What you typed has not been saved." : "Your edits to this note have not been saved."}
      onClose={onKeep}
      closeOnOutsideClick
    >
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onKeep}>
          Keep editing
        </button>
        <button type="button" className="button danger" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </Dialog>
  );
}
