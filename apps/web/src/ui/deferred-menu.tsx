/**
 * A menu button whose menu's code (Radix DropdownMenu over Floating UI, about
 * 18–30 KB gzipped) loads when the user reaches for it, not with the screen.
 * Until then the button is a plain one that fetches the menu on hover or focus;
 * pressed, it stays (expanded) until the code is there, then the loaded menu
 * takes its place and replays the press on its own button (`Menu`'s `press`),
 * so it opens as that press would have opened it. `children` must render at
 * once once `load` has resolved (an `onDemand` component whose `preload` is
 * `load`): nothing suspends, so React has no reveal to hold back.
 */
import {
  type ButtonHTMLAttributes,
  cloneElement,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  useState,
} from "react";
import { useLoadWhen } from "../lib/preloadable.js";

/** How the button was pressed: a keyboard opening focuses the menu's first item. */
export type MenuPress = "pointer" | "keyboard";

/** Keys that open a menu button: Radix's trigger's, and ArrowUp, which a menu button may take too. */
const openingKeys = new Set(["Enter", " ", "ArrowDown", "ArrowUp"]);

export interface DeferredMenuProps {
  /** The button, as the loaded menu also shows it. */
  trigger: ReactElement<ButtonHTMLAttributes<HTMLButtonElement>>;
  /** Fetches the menu's code. */
  load: () => Promise<unknown>;
  /** The loaded menu, given how its button was pressed and the button as given. */
  children: (press: MenuPress, trigger: DeferredMenuProps["trigger"]) => ReactNode;
}

export function DeferredMenu({ trigger, load, children }: DeferredMenuProps) {
  const [press, setPress] = useState<MenuPress | null>(null);
  const loaded = useLoadWhen(press !== null, load);
  const prefetch = () => {
    load().catch(() => undefined);
  };
  const button = cloneElement(trigger, {
    "aria-haspopup": "menu",
    "aria-expanded": press !== null,
    onPointerEnter: prefetch,
    onFocus: prefetch,
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button === 0 && !event.ctrlKey) setPress("pointer");
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (!openingKeys.has(event.key)) return;
      event.preventDefault();
      setPress("keyboard");
    },
  });
  return press && loaded ? children(press, trigger) : button;
}
