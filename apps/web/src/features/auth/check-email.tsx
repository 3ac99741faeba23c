import { MailCheck } from "lucide-react";
import type { ReactNode } from "react";

/** After an email was sent: where to look, and that the link works in this browser. */
export function CheckEmail({ email, children }: { email: string; children: ReactNode }) {
  return (
    <div className="check-email" role="status">
      <MailCheck aria-hidden="true" className="check-email-icon" />
      <h2>Check your email</h2>
      <p>
        {children} <strong>{email}</strong>. Open it in this browser to continue.
      </p>
    </div>
  );
}
