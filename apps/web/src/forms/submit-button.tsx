import type { ReactNode } from "react";

/** A form's submit button, disabled while its request runs so it is sent once. */
export function SubmitButton({
  pending,
  children,
  pendingLabel,
  variant = "primary",
}: {
  pending: boolean;
  children: ReactNode;
  pendingLabel?: string;
  variant?: "primary" | "secondary" | "danger";
}) {
  return (
    <button type="submit" className={`button ${variant}`} disabled={pending} aria-busy={pending || undefined}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
