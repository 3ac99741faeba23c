import { useState } from "react";
import { onDemand } from "../lib/preloadable.js";

/** The dialog, its form and its counts load on the first click: the deck and study screens show only the button. */
const CustomStudyDialog = onDemand(() => import("./custom-study-dialog.js").then((module) => module.CustomStudyDialog));

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
