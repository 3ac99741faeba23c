import { useState } from "react";
import { CustomStudyDialog } from "./custom-study-dialog.js";

/** Opens the Custom study dialog for a deck the user studies. */
export function CustomStudyButton({ deckId }: { deckId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Custom study
      </button>
      {open ? <CustomStudyDialog deckId={deckId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
