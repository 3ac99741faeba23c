/** The shared note editor (src/note-editor), loaded lazily so its editor library stays out of this screen's chunk. */
import { onDemand } from "../../lib/preloadable.js";
import { Loading } from "../../ui/loading.js";

const NoteEditorDialog = onDemand(
  () => import("../../note-editor/note-editor-dialog.js").then((m) => m.NoteEditorDialog),
  () => <Loading label="Opening the editor…" />,
);

export interface NoteEditorSlotProps {
  deckId: string;
  noteId?: string;
  onClose: () => void;
  onSaved?: (noteId: string, notice?: string) => void;
}

export function NoteEditorSlot(props: NoteEditorSlotProps) {
  return <NoteEditorDialog {...props} />;
}
