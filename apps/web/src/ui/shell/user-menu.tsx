import { ChevronDown, CircleUser } from "lucide-react";
import { onDemand } from "../../lib/preloadable.js";
import { DeferredMenu } from "../deferred-menu.js";

const AccountDropdown = onDemand(() => import("./account-dropdown.js").then((module) => module.AccountDropdown));

/** The signed-in user's email, opening sign-out for this device or for every device; the menu loads when pressed. */
export function UserMenu({ email }: { email: string }) {
  return (
    <div className="user-menu">
      <DeferredMenu
        load={AccountDropdown.preload}
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
        {(press, trigger) => <AccountDropdown trigger={trigger} press={press} />}
      </DeferredMenu>
    </div>
  );
}
