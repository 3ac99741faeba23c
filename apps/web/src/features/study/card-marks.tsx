/** The user's flag on the card and mark on its note, shown on the card (only they see them). */
import type { CardFlag } from "@engram/sdk";
import { flagNames } from "./use-card-actions.js";

export function CardMarks({ flag, marked }: { flag: CardFlag; marked: boolean }) {
  if (flag === 0 && !marked) return null;
  return (
    <p className="card-marks">
      {flag !== 0 && (
        <span className={`card-flag flag-${flag}`} role="img" aria-label={`${flagNames[flag]} flag`}>
          ⚑
        </span>
      )}
      {marked && (
        <span className="card-marked" role="img" aria-label="Marked">
          ★
        </span>
      )}
    </p>
  );
}
