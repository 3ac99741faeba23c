/**
 * "Optimise my scheduler": trains FSRS's parameters on the user's own reviews
 * in the transfer worker and shows whether they predict those reviews better.
 */
import { useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useRef, useState } from "react";
import { optimiseErrorMessage } from "../errors/messages.js";
import { ProgressReport } from "../import/import-progress.js";
import type { OptimiseResult, Progress } from "../import/transfer-protocol.js";
import { useTransfer } from "../import/use-transfer.js";
import { Dialog } from "../shell/dialog.js";
import "./optimise-scheduler.css";

type State =
  | { status: "ready" }
  | { status: "training"; progress: Progress }
  | { status: "done"; result: OptimiseResult }
  | { status: "failed"; error: unknown };

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

const decimals = new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const count = new Intl.NumberFormat();

function OptimiseDialog({ onClose }: { onClose: () => void }) {
  const transfer = useTransfer();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ status: "ready" });
  // Answers after the dialog closed have nowhere to go.
  const open = useRef(true);

  const train = () => {
    setState({ status: "training", progress: { phase: "training", done: 0, total: 0 } });
    transfer
      .optimise({
        onProgress: (progress) => {
          if (open.current) setState({ status: "training", progress });
        },
      })
      .then(
        (result) => {
          // New parameters change every next interval shown.
          if (result.saved) void queryClient.invalidateQueries();
          if (open.current) setState({ status: "done", result });
        },
        (error: unknown) => {
          if (open.current) setState({ status: "failed", error });
        },
      );
  };
  const close = () => {
    open.current = false;
    onClose();
  };

  return (
    <Dialog title="Optimise my scheduler" onClose={close}>
      {state.status === "ready" ? (
        <p>
          Engram trains its scheduler on your review history, on this device, and keeps the new settings if they predict
          your answers better. It takes a few seconds.
        </p>
      ) : null}
      {state.status === "training" ? <ProgressReport progress={state.progress} label="Training progress" /> : null}
      {state.status === "failed" ? (
        <p role="alert" className="error-summary">
          {optimiseErrorMessage(state.error)}
        </p>
      ) : null}
      {state.status === "done" ? <OptimiseResultTable result={state.result} /> : null}
      <div className="dialog-actions">
        {state.status === "ready" || state.status === "failed" ? (
          <button type="button" className="button primary" onClick={train}>
            {state.status === "failed" ? "Try again" : "Optimise"}
          </button>
        ) : null}
        <button type="button" className="button secondary" onClick={close}>
          {state.status === "done" ? "Done" : "Close"}
        </button>
      </div>
    </Dialog>
  );
}

function OptimiseResultTable({ result }: { result: OptimiseResult }) {
  const rows = [
    { label: "Log loss", before: result.before.logLoss, after: result.after.logLoss },
    { label: "RMSE", before: result.before.rmseBins, after: result.after.rmseBins },
  ];
  return (
    <>
      <p>
        Trained on {count.format(result.reviews)} reviews. Both numbers measure how far the scheduler's predictions were
        from your real answers: lower is better.
      </p>
      <table className="optimise-table">
        <caption className="visually-hidden">Prediction error before and after</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{decimals.format(row.before)}</td>
              <td>{decimals.format(row.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p role="status" className="optimise-saved">
        {result.saved
          ? "Saved. Your cards are scheduled with the new settings from now on."
          : "Not saved: the new settings did not predict your answers better, so the old ones stay."}
      </p>
    </>
  );
}
