/** The shared note editor (src/note-editor), loaded lazily so its editor library stays out of this screen's chunk. */
import { lazy, Suspense } from "react";
import { Loading } from "../../ui/loading.js";

const NoteEditorDialog = lazy(() =>
  import("../../note-editor/note-editor-dialog.js").then((m) => ({ default: m.NoteEditorDialog })),
);

export interface NoteEditorSlotProps {
  deckId: string;
  noteId?: string;
  onClose: () => void;
  onSaved?: (noteId: string, notice?: string) => void;
}

export function NoteEditorSlot(props: NoteEditorSlotProps) {
  return (
    <Suspense fallback={<Loading label="Opening the editor…" />}>
      <NoteEditorDialog {...props} />
    </Suspense>
  );
}
