import { BarChart3, LogOut, Settings } from "lucide-react";
import type { ReactElement } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link } from "../../lib/navigation.js";
import { useSignOut } from "../../session/use-sign-out.js";
import type { MenuPress } from "../deferred-menu.js";
import { Menu, MenuItem } from "../menu.js";

/** The account menu, loaded by its button's first press: statistics, settings, and sign-out here or everywhere. */
export function AccountDropdown({ trigger, press }: { trigger: ReactElement; press: MenuPress }) {
  const signOut = useSignOut();

  return (
    <>
      <Menu align="end" trigger={trigger} press={press}>
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
