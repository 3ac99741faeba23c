/**
 * "Optimise my scheduler": trains FSRS's parameters on the user's own reviews
 * in the transfer worker and shows whether they predict those reviews better;
 * when they are saved, it can reschedule every card with them.
 */
import { Sparkles } from "lucide-react";
import { useState } from "react";
import { onDemand } from "../lib/preloadable.js";
import "./optimise-scheduler.css";

/** The dialog and the transfer worker's client load on the first press, not with the dashboard or settings. */
const OptimiseDialog = onDemand(() => import("./optimise-dialog.js").then((module) => module.OptimiseDialog));

export function OptimiseScheduler() {
  return (
    <section className="dashboard-optimise" aria-labelledby="optimise-title">
      <h2 id="optimise-title">Scheduler</h2>
      <p>Engram can tune when cards come back to how you remember, once you have 400 or more reviews.</p>
      <OptimiseButton />
    </section>
  );
}

/** The button and its dialog alone, for the dashboard's section and the settings screen. */
export function OptimiseButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        <Sparkles aria-hidden="true" /> Optimise my scheduler
      </button>
      {open ? <OptimiseDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
