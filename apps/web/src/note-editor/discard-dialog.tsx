/** Asks before unsaved changes are thrown away; Escape or "Keep editing" goes back to the note. */
import * as RadixDialog from "@radix-ui/react-dialog";

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
    <RadixDialog.Root open onOpenChange={(open) => !open && onKeep()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="note-editor-overlay discard-overlay" />
        <RadixDialog.Content role="alertdialog" className="dialog discard-dialog">
          <RadixDialog.Title>{adding ? "Discard this note?" : "Discard your changes?"}</RadixDialog.Title>
          <RadixDialog.Description>
            {adding ? "What you typed has not been saved." : "Your edits to this note have not been saved."}
          </RadixDialog.Description>
          <div className="dialog-actions">
            <RadixDialog.Close asChild>
              <button type="button" className="button secondary">
                Keep editing
              </button>
            </RadixDialog.Close>
            <button type="button" className="button danger" onClick={onDiscard}>
              Discard
            </button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
