import { questionText } from "./question-text.js";
import type { AnsweredElsewhere } from "./use-study-session.js";

/**
 * A card answered here after another device of the same user had answered
 * it: the other answer stands and this one was not counted (the session
 * dropped it). Said plainly, never silently.
 */
export function AnsweredElsewhereNotices({
  notices,
  onDismiss,
}: {
  notices: AnsweredElsewhere[];
  onDismiss: (id: string) => void;
}) {
  return (
    <div role="status" className="answered-elsewhere">
      {notices.map((notice) => {
        const question = questionText(notice.card);
        return (
          <div key={notice.id} className="notice answered-elsewhere-notice">
            <p>
              <strong>Answered on another device</strong> — {question ? <>“{question}” </> : "this card "}
              was answered there first, so your answer here was not counted. The card follows that answer's schedule.
            </p>
            <button type="button" className="button secondary small" onClick={() => onDismiss(notice.id)}>
              OK
            </button>
          </div>
        );
      })}
    </div>
  );
}
