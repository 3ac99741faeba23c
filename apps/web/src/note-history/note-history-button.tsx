/** "History": opens a note's history over whatever shows the note. The panel loads when first opened. */
import { History } from "lucide-react";
import { useState } from "react";
import { onDemand } from "../lib/preloadable.js";
import { Loading } from "../ui/loading.js";

const NoteHistoryPanel = onDemand(
  async () => (await import("./note-history-panel.js")).NoteHistoryPanel,
  () => <Loading label="Loading the note's history…" />,
);

export function NoteHistoryButton({ noteId, canRestore }: { noteId: string; canRestore: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button secondary note-history-button" onClick={() => setOpen(true)}>
        <History aria-hidden="true" /> History
      </button>
      {open ? <NoteHistoryPanel noteId={noteId} canRestore={canRestore} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
