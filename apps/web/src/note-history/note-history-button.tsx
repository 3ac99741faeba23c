/** "History": opens a note's history over whatever shows the note. The panel loads when first opened. */
import { History } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Loading } from "../ui/loading.js";

const NoteHistoryPanel = lazy(async () => ({ default: (await import("./note-history-panel.js")).NoteHistoryPanel }));

export function NoteHistoryButton({ noteId, canRestore }: { noteId: string; canRestore: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button secondary note-history-button" onClick={() => setOpen(true)}>
        <History aria-hidden="true" /> History
      </button>
      {open ? (
        <Suspense fallback={<Loading label="Loading the note's history…" />}>
          <NoteHistoryPanel noteId={noteId} canRestore={canRestore} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
