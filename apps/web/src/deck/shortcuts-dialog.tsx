import { Dialog } from "../shell/dialog.js";
import { shortcuts } from "./shortcuts.js";

export function ShortcutsDialog({ canEdit, onClose }: { canEdit: boolean; onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcut-table">
        <caption className="visually-hidden">Keys and what they do on this screen</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts
            .filter((shortcut) => canEdit || !shortcut.editorsOnly)
            .map((shortcut) => (
              <tr key={shortcut.action}>
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
