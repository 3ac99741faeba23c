/**
 * The app's one menu button, on Radix DropdownMenu (docs/conventions.md §11):
 * arrow keys, Home/End and typing move through the items, Escape closes the
 * menu and gives the focus back to its button. The styling is ours.
 */
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import { type ReactElement, type ReactNode, useEffect, useRef } from "react";
import type { MenuPress } from "./deferred-menu.js";

export interface MenuProps {
  /** The button that opens the menu; it is given the menu's ARIA attributes and handlers. */
  trigger: ReactElement;
  children: ReactNode;
  /** The menu's accessible name, when the button's own words would not do. */
  label?: string;
  /** Which edge of the button the menu lines up with. */
  align?: "start" | "end";
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The press that loaded this menu (`DeferredMenu`), replayed on its button once mounted. */
  press?: MenuPress;
  className?: string;
}

export function Menu({ trigger, children, label, align = "start", open, onOpenChange, press, className }: MenuProps) {
  const button = useReplayedPress(press);
  return (
    // Not modal: the rest of the page stays in the accessibility tree, so the button keeps its name while open.
    <RadixMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <RadixMenu.Trigger asChild ref={button}>
        {trigger}
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          className={className ? `menu ${className}` : "menu"}
          align={align}
          sideOffset={4}
          loop
          {...(label ? { "aria-label": label, "aria-labelledby": undefined } : {})}
          // Keys pressed in the menu are its own: letters are not the screen's single-key shortcuts.
          onKeyDown={(event) => event.stopPropagation()}
        >
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

export interface MenuItemProps {
  children: ReactNode;
  onSelect?: () => void;
  disabled?: boolean;
  /** Render the item as its one child, such as a router link. */
  asChild?: boolean;
}

export function MenuItem({ children, onSelect, disabled, asChild }: MenuItemProps) {
  return (
    <RadixMenu.Item className="menu-item" onSelect={onSelect} disabled={disabled} asChild={asChild}>
      {children}
    </RadixMenu.Item>
  );
}

/**
 * Presses the menu's button as the user did before its code was there: a key
 * (Radix then focuses the first item) or the pointer. Once: a development build
 * runs an effect twice, and a second press would close the menu.
 */
function useReplayedPress(press: MenuPress | undefined) {
  const button = useRef<HTMLButtonElement>(null);
  const replayed = useRef(false);
  useEffect(() => {
    const target = button.current;
    if (!press || !target || replayed.current) return;
    replayed.current = true;
    target.focus();
    target.dispatchEvent(
      press === "keyboard"
        ? new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })
        : new PointerEvent("pointerdown", { button: 0, bubbles: true, cancelable: true }),
    );
  }, [press]);
  return button;
}
