import type { ReactNode } from "react";

/** One part of the settings screen: a heading people can jump to, a line on what it does, its own controls. */
export function SettingsSection({
  id,
  title,
  intro,
  tone,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  tone?: "danger";
  children: ReactNode;
}) {
  return (
    <section id={id} className={`settings-section${tone ? ` ${tone}` : ""}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro ? <p className="settings-intro">{intro}</p> : null}
      {children}
    </section>
  );
}

/** A section's success message, in a live region that is always there so the change is announced. */
export function SavedStatus({ message }: { message: string }) {
  return (
    <p role="status" className="settings-saved">
      {message}
    </p>
  );
}
