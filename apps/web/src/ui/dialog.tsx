import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and
 * returns focus to the button that opened it. Mount it to open it.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // No close() on cleanup: it would fire `close` (and onClose) when StrictMode
  // re-runs the effect; removing the element ends the modal anyway.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
