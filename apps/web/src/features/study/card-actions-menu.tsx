/** The "More" menu: the card actions for touch screens, with their keys beside them for keyboards. */
import { type CardFlag, cardFlags } from "@engram/sdk";
import { Menu, MenuItem } from "../../ui/menu.js";
import { flagNames } from "./use-card-actions.js";

type Props = {
  flag: CardFlag;
  marked: boolean;
  onSuspend: () => void;
  onBuryCard: () => void;
  onBuryNote: () => void;
  onFlag: (flag: CardFlag) => void;
  onMark: () => void;
  onInfo: () => void;
};

export function CardActionsMenu({ flag, marked, onSuspend, onBuryCard, onBuryNote, onFlag, onMark, onInfo }: Props) {
  return (
    <Menu
      className="study-more-menu"
      label="Card actions"
      align="end"
      trigger={
        <button type="button" className="button secondary small">
          More
        </button>
      }
    >
      <MenuItem onSelect={onSuspend}>
        Suspend card <kbd>@</kbd>
      </MenuItem>
      <MenuItem onSelect={onBuryCard}>
        Bury card <kbd>-</kbd>
      </MenuItem>
      <MenuItem onSelect={onBuryNote}>
        Bury note <kbd>=</kbd>
      </MenuItem>
      <MenuItem onSelect={onMark}>
        {marked ? "Unmark note" : "Mark note"} <kbd>*</kbd>
      </MenuItem>
      {cardFlags.map((n) => (
        <MenuItem key={n} onSelect={() => onFlag(n)}>
          <span className={`flag-swatch flag-${n}`} aria-hidden="true" />
          {flag === n ? `Clear ${flagNames[n].toLowerCase()} flag` : `${flagNames[n]} flag`} <kbd>Ctrl+{n}</kbd>
        </MenuItem>
      ))}
      <MenuItem onSelect={onInfo}>
        Card info <kbd>I</kbd>
      </MenuItem>
    </Menu>
  );
}
