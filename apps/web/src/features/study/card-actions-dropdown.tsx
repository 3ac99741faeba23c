/** The "More" menu, loaded by its button's first press (card-actions-menu.tsx). */
import { type CardFlag, cardFlags } from "@engram/sdk";
import type { ReactElement } from "react";
import type { MenuPress } from "../../ui/deferred-menu.js";
import { Menu, MenuItem } from "../../ui/menu.js";
import { flagNames } from "./use-card-actions.js";

export type CardActionsProps = {
  flag: CardFlag;
  marked: boolean;
  onSuspend: () => void;
  onBuryCard: () => void;
  onBuryNote: () => void;
  onFlag: (flag: CardFlag) => void;
  onMark: () => void;
  onInfo: () => void;
};

export function CardActionsDropdown({
  trigger,
  press,
  flag,
  marked,
  onSuspend,
  onBuryCard,
  onBuryNote,
  onFlag,
  onMark,
  onInfo,
}: CardActionsProps & { trigger: ReactElement; press: MenuPress }) {
  return (
    <Menu className="study-more-menu" label="Card actions" align="end" trigger={trigger} press={press}>
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
