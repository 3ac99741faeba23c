/**
 * The optimiser's dialog: trains in the transfer worker, shows the trained
 * parameters against the current ones, saves them and can reschedule every
 * card with them. Loaded when "Optimise my scheduler" is first pressed.
 */
import { useId, useRef, useState } from "react";
import { errorMessage, optimiseErrorMessage } from "../lib/error-messages.js";
import { useEngramInvalidations } from "../session/factories.js";
import { ProgressReport } from "../transfer/progress-report.js";
import type { OptimiseResult, Progress, RescheduleOutcome } from "../transfer/transfer-protocol.js";
import { useTransfer } from "../transfer/use-transfer.js";
import { Dialog } from "../ui/dialog.js";

/** What rescheduling did after the new settings were saved, when it was asked for. */
type Rescheduled =
  | { status: "running" }
  | { status: "done"; outcome: RescheduleOutcome }
  | { status: "failed"; error: unknown };

type State =
  | { status: "ready" }
  | { status: "training"; progress: Progress }
  | { status: "done"; result: OptimiseResult; rescheduled?: Rescheduled }
  | { status: "failed"; error: unknown };

const decimals = new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const count = new Intl.NumberFormat();

export function OptimiseDialog({ onClose }: { onClose: () => void }) {
  const transfer = useTransfer();
  const invalidations = useEngramInvalidations();
  const [state, setState] = useState<State>({ status: "ready" });
  const [reschedule, setReschedule] = useState(false);
  const rescheduleHint = useId();
  // Answers after the dialog closed have nowhere to go.
  const open = useRef(true);
  const show = (next: State) => {
    if (open.current) setState(next);
  };

  const rescheduleWith = (result: OptimiseResult) => {
    show({ status: "done", result, rescheduled: { status: "running" } });
    transfer.reschedule(result.parameters).then(
      (outcome) => {
        void invalidations.cardsRescheduled();
        show({ status: "done", result, rescheduled: { status: "done", outcome } });
      },
      (error: unknown) => show({ status: "done", result, rescheduled: { status: "failed", error } }),
    );
  };

  const train = () => {
    setState({ status: "training", progress: { phase: "training", done: 0, total: 0 } });
    transfer.optimise({ onProgress: (progress) => show({ status: "training", progress }) }).then(
      (result) => {
        if (result.saved) void invalidations.parametersSaved();
        if (result.saved && reschedule) rescheduleWith(result);
        else show({ status: "done", result });
      },
      (error: unknown) => show({ status: "failed", error }),
    );
  };
  const close = () => {
    open.current = false;
    onClose();
  };
  const rescheduling = state.status === "done" && state.rescheduled?.status === "running";

  return (
    <Dialog title="Optimise my scheduler" onClose={close}>
      {state.status === "ready" ? (
        <p>
          Engram trains its scheduler on your review history, on this device, and keeps the new settings if they predict
          your answers better. It takes a few seconds.
        </p>
      ) : null}
      {state.status === "ready" || state.status === "failed" ? (
        <div className="optimise-reschedule">
          <input
            type="checkbox"
            id={`${rescheduleHint}-box`}
            checked={reschedule}
            aria-describedby={rescheduleHint}
            onChange={(event) => setReschedule(event.currentTarget.checked)}
          />
          <div>
            <label htmlFor={`${rescheduleHint}-box`}>Reschedule cards on change</label>
            <p id={rescheduleHint} className="field-hint">
              If the new settings are kept, every card's next review moves to the day they give it, rather than when you
              next answer it.
            </p>
          </div>
        </div>
      ) : null}
      {state.status === "training" ? <ProgressReport progress={state.progress} label="Training progress" /> : null}
      {state.status === "failed" ? (
        <p role="alert" className="error-summary">
          {optimiseErrorMessage(state.error)}
        </p>
      ) : null}
      {state.status === "done" ? (
        <>
          <OptimiseResultTable result={state.result} />
          {state.rescheduled ? <RescheduleReport rescheduled={state.rescheduled} /> : null}
        </>
      ) : null}
      <div className="dialog-actions">
        {state.status === "ready" || state.status === "failed" ? (
          <button type="button" className="button primary" onClick={train}>
            {state.status === "failed" ? "Try again" : "Optimise"}
          </button>
        ) : null}
        {state.status === "done" && state.rescheduled?.status === "failed" ? (
          <button type="button" className="button primary" onClick={() => rescheduleWith(state.result)}>
            Reschedule again
          </button>
        ) : null}
        <button type="button" className="button secondary" onClick={close} disabled={rescheduling}>
          {state.status === "done" && !rescheduling ? "Done" : "Close"}
        </button>
      </div>
    </Dialog>
  );
}

const cards = (n: number) => `${count.format(n)} ${n === 1 ? "card" : "cards"}`;

/** "n cards moved earlier, m later": how the new settings moved the cards. */
function RescheduleReport({ rescheduled }: { rescheduled: Rescheduled }) {
  if (rescheduled.status === "running") {
    return (
      <p role="status" className="optimise-rescheduled">
        Rescheduling your cards…
      </p>
    );
  }
  if (rescheduled.status === "failed") {
    return (
      <p role="alert" className="error-summary">
        The new settings are saved, but your cards could not be rescheduled: {errorMessage(rescheduled.error)}
      </p>
    );
  }
  const { earlier, later, unchanged, skipped } = rescheduled.outcome;
  return (
    <p role="status" className="optimise-rescheduled">
      Rescheduled: {cards(earlier)} moved earlier, {count.format(later)} later, {count.format(unchanged)} unchanged.
      {skipped > 0 ? ` ${cards(skipped)} answered on another device meanwhile kept that answer's date.` : ""}
    </p>
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
