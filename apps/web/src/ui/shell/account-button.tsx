import { ChevronDown, CircleUser } from "lucide-react";
import type { ComponentPropsWithRef } from "react";

/** The header's account button: the user's email, or on a phone an icon standing for it. */
export function AccountButton({ email, ...props }: { email: string } & ComponentPropsWithRef<"button">) {
  return (
    <button type="button" className="user-menu-button" {...props}>
      {/* On a phone the icon stands for the email, so the header keeps to one row. */}
      <CircleUser aria-hidden="true" className="user-icon" />
      <span className="user-email">{email}</span>
      <ChevronDown aria-hidden="true" />
      <span className="visually-hidden">Account menu</span>
    </button>
  );
}
