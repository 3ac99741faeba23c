import { BarChart3, LogOut, Settings } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { errorMessage } from "../../lib/error-messages.js";
import { useSignOut } from "../../session/use-sign-out.js";
import { Menu, MenuItem } from "../menu.js";
import { AccountButton } from "./account-button.js";

/**
 * The account menu itself: statistics, settings, and sign-out here or
 * everywhere. It mounts because its button was pressed before its code was
 * there, so that press is replayed on the menu's own button, which opens it as
 * that press would have: from a key, with the first item focused.
 */
export function AccountMenu({ email, byKeyboard }: { email: string; byKeyboard: boolean }) {
  const signOut = useSignOut();
  const button = useRef<HTMLButtonElement>(null);
  // Once: a development build runs an effect twice, and a second press would close the menu.
  const replayed = useRef(false);
  useEffect(() => {
    if (replayed.current) return;
    replayed.current = true;
    button.current?.focus();
    button.current?.dispatchEvent(
      byKeyboard
        ? new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })
        : new PointerEvent("pointerdown", { button: 0, bubbles: true, cancelable: true }),
    );
  }, [byKeyboard]);

  return (
    <>
      <Menu align="end" trigger={<AccountButton email={email} ref={button} />}>
        <MenuItem asChild>
          <Link to="/stats">
            <BarChart3 aria-hidden="true" /> Statistics
          </Link>
        </MenuItem>
        <MenuItem asChild>
          <Link to="/settings">
            <Settings aria-hidden="true" /> Settings
          </Link>
        </MenuItem>
        <MenuItem disabled={signOut.isPending} onSelect={() => signOut.mutate("local")}>
          <LogOut aria-hidden="true" /> Sign out
        </MenuItem>
        <MenuItem disabled={signOut.isPending} onSelect={() => signOut.mutate("global")}>
          <LogOut aria-hidden="true" /> Sign out everywhere
        </MenuItem>
      </Menu>
      {signOut.error ? (
        <p role="alert" className="field-error user-menu-error">
          {errorMessage(signOut.error)}
        </p>
      ) : null}
    </>
  );
}
