import { type IntervalPreview, Rating } from "@engram/core";

const buttons = [
  { rating: Rating.again, name: "Again", key: "1", className: "again" },
  { rating: Rating.hard, name: "Hard", key: "2", className: "hard" },
  { rating: Rating.good, name: "Good", key: "3", className: "good" },
  { rating: Rating.easy, name: "Easy", key: "4", className: "easy" },
] as const;

/** Anki's four buttons, each with the interval it would give (the session's previews) above its name. */
export function AnswerButtons({
  intervals,
  onRate,
}: {
  intervals: Record<Rating, IntervalPreview>;
  onRate: (rating: Rating) => void;
}) {
  return (
    <fieldset className="answer-buttons">
      <legend className="visually-hidden">How well did you remember?</legend>
      {buttons.map((button) => (
        <button
          key={button.rating}
          type="button"
          className={`answer-button ${button.className}`}
          aria-keyshortcuts={button.key}
          onClick={() => onRate(button.rating)}
        >
          {/* The name first, so it leads the accessible name ("Good 10m 3"); CSS puts the interval above. */}
          <span className="answer-name">{button.name}</span>
          <span className="answer-interval">{intervals[button.rating].label}</span>
          <kbd className="answer-key">{button.key}</kbd>
        </button>
      ))}
    </fieldset>
  );
}

export function RevealButton({ onReveal }: { onReveal: () => void }) {
  return (
    <button type="button" className="button primary reveal-button" aria-keyshortcuts="Space Enter" onClick={onReveal}>
      Show answer <kbd>Space</kbd>
    </button>
  );
}
