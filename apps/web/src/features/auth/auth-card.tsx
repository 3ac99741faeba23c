import { Brain } from "lucide-react";
import type { ReactNode } from "react";
import { usePageTitle } from "../../ui/page-title.js";

/** The frame of every auth screen: the logo, a heading, then the form or message. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  usePageTitle(title);
  return (
    <section className="auth-card" aria-labelledby="auth-title">
      <Brain aria-hidden="true" className="auth-logo" />
      <h1 id="auth-title">{title}</h1>
      {intro ? <p className="auth-intro">{intro}</p> : null}
      {children}
    </section>
  );
}
