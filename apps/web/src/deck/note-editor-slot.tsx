/**
 * The shared note editor (src/note-editor), loaded lazily so its editor
 * library stays out of this screen's chunk. Found at build time: a build
 * without the editor shows no Add or Edit buttons rather than dead ones.
 */
import { type ComponentType, lazy, Suspense } from "react";
import { Loading } from "../shell/loading.js";

export interface NoteEditorDialogProps {
  deckId: string;
  noteId?: string;
  onClose: () => void;
  onSaved?: (noteId: string) => void;
}

type EditorModule = { NoteEditorDialog: ComponentType<NoteEditorDialogProps> };
const modules = import.meta.glob<EditorModule>("../note-editor/note-editor-dialog.tsx");
const load = Object.values(modules)[0];

export const noteEditorAvailable = load !== undefined;

const NoteEditorDialog = load ? lazy(() => load().then((m) => ({ default: m.NoteEditorDialog }))) : null;

export function NoteEditorSlot(props: NoteEditorDialogProps) {
  if (!NoteEditorDialog) return null;
  return (
    <Suspense fallback={<Loading label="Opening the editor…" />}>
      <NoteEditorDialog {...props} />
    </Suspense>
  );
}
