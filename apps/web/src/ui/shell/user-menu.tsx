import { BarChart3, ChevronDown, CircleUser, LogOut, Settings } from "lucide-react";
import { Link } from "react-router";
import { errorMessage } from "../../lib/error-messages.js";
import { useSignOut } from "../../session/use-sign-out.js";
import { Menu, MenuItem } from "../menu.js";

/** The signed-in user's email, opening sign-out for this device or for every device. */
export function UserMenu({ email }: { email: string }) {
  const signOut = useSignOut();

  return (
    <div className="user-menu">
      <Menu
        align="end"
        trigger={
          <button type="button" className="user-menu-button">
            {/* On a phone the icon stands for the email, so the header keeps to one row. */}
            <CircleUser aria-hidden="true" className="user-icon" />
            <span className="user-email">{email}</span>
            <ChevronDown aria-hidden="true" />
            <span className="visually-hidden">Account menu</span>
          </button>
        }
      >
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
    </div>
  );
}
