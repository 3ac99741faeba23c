import { questionText } from "./question-text.js";
import type { NewLeech } from "./use-study-session.js";

/**
 * Says that an answer made a card a leech, and what became of it. The live
 * region is always there, so a screen reader announces each new message.
 */
export function LeechNotice({ leech }: { leech: NewLeech | null }) {
  const question = leech ? questionText(leech.card) : null;
  return (
    <div role="status" aria-live="polite" className="leech-notice">
      {leech ? (
        <p className="notice">
          <strong>Leech:</strong> you've forgotten {question ? `“${question}”` : "this card"} {leech.lapses} times.{" "}
          {leech.suspended ? "It's been suspended." : "Tagged leech."}
        </p>
      ) : null}
    </div>
  );
}
