import { MailCheck } from "lucide-react";
import type { ReactNode } from "react";

/** After an email was sent: where to look, and how to go on (by default, its link in this browser). */
export function CheckEmail({
  email,
  children,
  then = "Open it in this browser to continue.",
}: {
  email: string;
  children: ReactNode;
  /** What to do with the email. */
  then?: string;
}) {
  return (
    <div className="check-email" role="status">
      <MailCheck aria-hidden="true" className="check-email-icon" />
      <h2>Check your email</h2>
      <p>
        {children} <strong>{email}</strong>. {then}
      </p>
    </div>
  );
}
