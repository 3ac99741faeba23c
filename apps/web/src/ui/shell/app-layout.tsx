import { type ReactNode, Suspense, useEffect } from "react";
import { NavLink, useLocation } from "../../lib/navigation.js";
import { onDemand } from "../../lib/preloadable.js";
import { useOnline } from "../../lib/use-online.js";
import { useSession } from "../../session/session-context.js";
import { useExpiryRedirect } from "../../session/use-expiry-redirect.js";
import { Loading } from "../loading.js";
import { ScreenErrorBoundary } from "../screen-error-boundary.js";
import { useFocusOnNavigate } from "./focus-on-navigate.js";
import { Logo } from "./logo.js";
import { ThemeToggle } from "./theme-toggle.js";

/**
 * The account button is a signed-in visitor's only, so it stays out of the
 * landing page's download; its menu loads when it is pressed (user-menu.tsx).
 */
const UserMenu = onDemand(() => import("./user-menu.js").then((module) => module.UserMenu));

/** Every screen: skip link, header with the logo, navigation and account, then the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const session = useSession();
  useExpiryRedirect();
  useFocusOnNavigate("main");
  const online = useOnline();
  const { pathname } = useLocation();
  // A stored session ("loading") fetches the menu alongside the SDK, not after it.
  const maybeSignedIn = session.status !== "signed-out";
  useEffect(() => {
    if (maybeSignedIn) UserMenu.preload().catch(() => undefined);
  }, [maybeSignedIn]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <Logo />
        <nav aria-label="Main" className="nav">
          {session.status === "signed-in" ? (
            <>
              <NavLink to="/decks">Decks</NavLink>
              <NavLink to="/explore">Explore</NavLink>
            </>
          ) : session.status === "signed-out" ? (
            <>
              <NavLink to="/explore">Explore</NavLink>
              <NavLink to="/sign-in">Sign in</NavLink>
              <NavLink to="/sign-up">Sign up</NavLink>
            </>
          ) : null}
        </nav>
        <div className="header-actions">
          <ThemeToggle />
          {session.status === "signed-in" ? <UserMenu email={session.session.user.email ?? "Account"} /> : null}
        </div>
      </header>
      {/* Without a connection queries wait; saying so beats a screen that only says "Loading…". */}
      <p role="status" className="offline-banner">
        {online ? "" : "You're offline. Screens you have not opened yet load when the connection is back."}
      </p>
      <main id="main" tabIndex={-1} className="main">
        {/* A screen opened before the SDK has loaded waits here for it (session/engram-context.tsx). */}
        <ScreenErrorBoundary place={pathname}>
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </ScreenErrorBoundary>
      </main>
    </div>
  );
}
