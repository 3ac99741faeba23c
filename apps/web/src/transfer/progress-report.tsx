import { formatCount } from "../lib/stats-format.js";
import type { Progress } from "./transfer-protocol.js";

/** Each phase's share of the bar: reading is quick, saving notes is most of the wait. */
const phases: Record<Progress["phase"], { from: number; to: number }> = {
  reading: { from: 0, to: 10 },
  media: { from: 10, to: 40 },
  staging: { from: 40, to: 90 },
  finishing: { from: 90, to: 100 },
  training: { from: 0, to: 100 },
};

export function percentOf(progress: Progress): number {
  const { from, to } = phases[progress.phase];
  const share = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  return Math.round(from + (to - from) * share);
}

function phaseText(progress: Progress): string {
  const counted = (what: string) =>
    progress.total > 0 ? `${what}: ${formatCount(progress.done)} of ${formatCount(progress.total)}` : `${what}…`;
  switch (progress.phase) {
    case "reading":
      return "Reading the file…";
    case "media":
      return counted("Uploading images and sounds");
    case "staging":
      return counted("Saving notes");
    case "finishing":
      return "Finishing…";
    case "training":
      return counted("Training on your reviews");
  }
}

/** A bar for the eye and a phase in words for screen readers, announced politely as it changes. */
export function ProgressReport({ progress, label }: { progress: Progress; label: string }) {
  const percent = percentOf(progress);
  return (
    <div className="progress-report">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, ${phaseText(progress)}`}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="progress-phase" aria-live="polite">
        {phaseText(progress)}
      </p>
    </div>
  );
}
