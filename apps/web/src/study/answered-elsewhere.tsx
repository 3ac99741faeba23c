import { renderCard } from "@engram/core";
import type { AnsweredElsewhere } from "./use-study-session.js";

/** The card's question as plain text, to name it in a message. */
function questionOf(notice: AnsweredElsewhere): string | null {
  if (!notice.card) return null;
  try {
    const html = renderCard(notice.card.note, notice.card.ordinal).front;
    const text = new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? "";
    return text.length > 60 ? `${text.slice(0, 57)}…` : text || null;
  } catch {
    return null;
  }
}

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
        const question = questionOf(notice);
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
