/** The `?` help of a screen: its shortcut table, the same one its key handler reads (docs/conventions.md §12). */
import { Dialog } from "./dialog.js";
import "./shortcuts-dialog.css";

export interface ShortcutRow {
  /** How the keys are written, e.g. "Space or Enter". */
  label: string;
  description: string;
}

export function ShortcutsDialog({
  shortcuts,
  caption,
  onClose,
}: {
  shortcuts: readonly ShortcutRow[];
  /** What the table is, for screen readers: "Keys and what they do while studying". */
  caption: string;
  onClose: () => void;
}) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcut-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.label}>
              <td>
                <kbd>{shortcut.label}</kbd>
              </td>
              <td>{shortcut.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
