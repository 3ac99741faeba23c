/** What the last card action did ("Card suspended — Undo"), announced politely. */
import type { ActionNotice as Notice } from "./use-card-actions.js";

export function ActionNotice({ notice, onUndo }: { notice: Notice | null; onUndo: () => void }) {
  return (
    <div className="action-notice" role="status">
      {notice && (
        <p key={notice.id}>
          {notice.text}
          {notice.undoable && (
            <>
              {" — "}
              <button type="button" className="link-button" onClick={onUndo}>
                Undo
              </button>
            </>
          )}
        </p>
      )}
    </div>
  );
}
