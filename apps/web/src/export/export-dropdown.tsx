/** Export's menu of formats, loaded by its button's first press (export-menu.tsx). */
import { type ButtonHTMLAttributes, cloneElement, type KeyboardEvent, type ReactElement } from "react";
import type { ExportChoices } from "../transfer/transfer-protocol.js";
import type { MenuPress } from "../ui/deferred-menu.js";
import { Menu, MenuItem } from "../ui/menu.js";

export const exportChoices: { label: string; choice: ExportChoices }[] = [
  { label: "Anki package (.apkg)", choice: { format: "apkg" } },
  { label: "Anki package with my schedule and history", choice: { format: "apkg", includeSchedule: true } },
  { label: "CSV", choice: { format: "csv" } },
];

interface Props {
  trigger: ReactElement<ButtonHTMLAttributes<HTMLButtonElement>>;
  press: MenuPress;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (choice: ExportChoices) => void;
}

export function ExportDropdown({ trigger, press, open, onOpenChange, onChoose }: Props) {
  return (
    <Menu
      label="Export as"
      className="export-menu"
      open={open}
      onOpenChange={onOpenChange}
      press={press}
      trigger={cloneElement(trigger, {
        onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
          // ArrowUp opens the menu too, as ArrowDown does.
          if (event.key === "ArrowUp") {
            event.preventDefault();
            onOpenChange(true);
          }
        },
      })}
    >
      {exportChoices.map(({ label, choice }) => (
        <MenuItem key={label} onSelect={() => onChoose(choice)}>
          {label}
        </MenuItem>
      ))}
    </Menu>
  );
}
