/** The editor's shortcuts, listed from the same table its key bindings use. */
import { describeKeys, noteEditorShortcuts } from "./shortcuts.js";

export function ShortcutHelp() {
  return (
    <details className="shortcut-help">
      <summary>Keyboard shortcuts</summary>
      <dl>
        {Object.entries(noteEditorShortcuts).map(([id, { keys, label }]) => (
          <div key={id} className="shortcut-row">
            <dt>
              <kbd>{describeKeys(keys)}</kbd>
            </dt>
            <dd>{label}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
