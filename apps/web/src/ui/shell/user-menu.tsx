import { type KeyboardEvent, lazy, type PointerEvent, Suspense, useState } from "react";
import { AccountButton } from "./account-button.js";

/**
 * The menu's code (Radix DropdownMenu over Floating UI, about 30 KB gzipped)
 * loads when the user reaches for the button, not with every signed-in page.
 */
const loadAccountMenu = () => import("./account-menu.js");
const AccountMenu = lazy(() => loadAccountMenu().then((module) => ({ default: module.AccountMenu })));

/** Keys that open a menu button, as Radix's trigger takes them. */
const openingKeys = new Set(["Enter", " ", "ArrowDown"]);

/**
 * The signed-in user's email, opening sign-out for this device or for every
 * device. Until first pressed it is a plain button that fetches the menu on
 * hover or focus; pressed, the menu takes its place, open.
 */
export function UserMenu({ email }: { email: string }) {
  // Null until pressed; then whether by a key, so the menu opens as a keyboard opening does.
  const [pressed, setPressed] = useState<{ byKeyboard: boolean } | null>(null);
  const prefetch = () => void loadAccountMenu();
  const onPointerDown = (event: PointerEvent) => {
    if (event.button === 0 && !event.ctrlKey) setPressed({ byKeyboard: false });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!openingKeys.has(event.key)) return;
    event.preventDefault();
    setPressed({ byKeyboard: true });
  };
  const button = (
    <AccountButton
      email={email}
      aria-haspopup="menu"
      aria-expanded={pressed !== null}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
  return (
    <div className="user-menu">
      {pressed ? (
        <Suspense fallback={button}>
          <AccountMenu email={email} byKeyboard={pressed.byKeyboard} />
        </Suspense>
      ) : (
        button
      )}
    </div>
  );
}
