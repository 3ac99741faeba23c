import { type ComponentType, useRef } from "react";
import { matchRoute, Route, useRouter, useSearch, useLocation as useWouterLocation } from "wouter";
import { type Preloadable, preloadable } from "../lib/preloadable.js";
import { RequireSession } from "../session/require-session.js";
import { prefetching, type RouteServices } from "../session/route-prefetch.js";
import { NotFoundPage } from "../ui/not-found-page.js";
import { AppLayout } from "../ui/shell/app-layout.js";

/**
 * Every screen is its own chunk, loaded when its route is first entered, so a
 * visitor downloads only what the page in front of them needs. The router
 * starts the load as the route is entered, beside the session check, so the
 * screen usually renders without suspending (lib/preloadable.tsx).
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Preloadable<object> {
  return preloadable(() => load().then(pick));
}

const statsScreen = () => import("../features/stats/stats-page.js");
const StudyPage = screen(
  () => import("../features/study/study-page.js"),
  (m) => m.StudyPage,
);

interface AppRoute {
  /** A wouter pattern: `:name` segments are the screen's `useParams()`. */
  path: string;
  Screen: Preloadable<object>;
  /** Sent to sign in without a session (session/require-session.tsx). */
  signedIn?: boolean;
  /** Starts the screen's first requests as the route is entered (session/route-prefetch.ts). */
  prefetch?: (searchParams: URLSearchParams) => void;
}

/** The app's routes, first match wins. */
export function createRoutes(services: RouteServices): AppRoute[] {
  return [
    {
      path: "/",
      Screen: screen(
        () => import("../features/home/home-page.js"),
        (m) => m.HomePage,
      ),
    },
    {
      path: "/sign-in",
      Screen: screen(
        () => import("../features/auth/sign-in-page.js"),
        (m) => m.SignInPage,
      ),
    },
    {
      path: "/sign-up",
      Screen: screen(
        () => import("../features/auth/sign-up-page.js"),
        (m) => m.SignUpPage,
      ),
    },
    {
      path: "/forgot-password",
      Screen: screen(
        () => import("../features/auth/forgot-password-page.js"),
        (m) => m.ForgotPasswordPage,
      ),
    },
    {
      path: "/reset-password",
      Screen: screen(
        () => import("../features/auth/reset-password-page.js"),
        (m) => m.ResetPasswordPage,
      ),
    },
    {
      path: "/auth/callback",
      Screen: screen(
        () => import("../features/auth/auth-callback-page.js"),
        (m) => m.AuthCallbackPage,
      ),
    },
    {
      path: "/invite/:token",
      Screen: screen(
        () => import("../features/invite/invite-page.js"),
        (m) => m.InvitePage,
      ),
    },
    {
      path: "/explore",
      Screen: screen(
        () => import("../features/explore/explore-page.js"),
        (m) => m.ExplorePage,
      ),
    },
    {
      path: "/decks",
      signedIn: true,
      Screen: screen(
        () => import("../features/decks/decks-page.js"),
        (m) => m.DecksPage,
      ),
    },
    {
      path: "/decks/:deckId",
      signedIn: true,
      Screen: screen(
        () => import("../features/note-browser/deck-page.js"),
        (m) => m.DeckPage,
      ),
    },
    {
      path: "/decks/:deckId/history",
      signedIn: true,
      Screen: screen(
        () => import("../features/note-history/deck-history-page.js"),
        (m) => m.DeckHistoryPage,
      ),
    },
    {
      path: "/decks/:deckId/deleted",
      signedIn: true,
      Screen: screen(
        () => import("../features/deleted-notes/deleted-notes-page.js"),
        (m) => m.DeletedNotesPage,
      ),
    },
    { path: "/decks/:deckId/study", signedIn: true, Screen: StudyPage },
    {
      path: "/decks/:deckId/custom-study",
      signedIn: true,
      Screen: screen(
        () => import("../features/study/custom-study-page.js"),
        (m) => m.CustomStudyPage,
      ),
    },
    {
      path: "/import",
      signedIn: true,
      Screen: screen(
        () => import("../features/import/import-page.js"),
        (m) => m.ImportPage,
      ),
    },
    {
      path: "/settings",
      signedIn: true,
      Screen: screen(
        () => import("../features/settings/settings-page.js"),
        (m) => m.SettingsPage,
      ),
    },
    {
      path: "/stats",
      signedIn: true,
      Screen: screen(statsScreen, (m) => m.StatsPage),
      prefetch: prefetching(services, statsScreen, (m) => m.prefetchStats),
    },
    {
      path: "/decks/:deckId/settings",
      signedIn: true,
      Screen: screen(
        () => import("../features/deck-settings/deck-settings-page.js"),
        (m) => m.DeckSettingsPage,
      ),
    },
    {
      path: "/decks/:deckId/suggestions",
      signedIn: true,
      Screen: screen(
        () => import("../features/suggestions/review-page.js"),
        (m) => m.ReviewPage,
      ),
    },
    {
      path: "/suggestions",
      signedIn: true,
      Screen: screen(
        () => import("../features/suggestions/my-suggestions-page.js"),
        (m) => m.MySuggestionsPage,
      ),
    },
    { path: "/study", signedIn: true, Screen: StudyPage },
  ];
}

/**
 * The screen for the address, inside the layout. One element tree for every
 * route: moving between two signed-in screens keeps the session gate and its
 * live updates mounted and swaps only the screen.
 */
export function AppRoutes({ routes }: { routes: AppRoute[] }) {
  const router = useRouter();
  const [pathname] = useWouterLocation();
  const search = useSearch();
  const route = routes.find(({ path }) => matchRoute(router.parser, path, pathname)[0]);

  // Once per entry into a route, as its first render starts rather than after it: the screen's chunk,
  // and its first requests, which its queries then pick up. Both are idempotent, so a render React
  // throws away costs nothing.
  const entered = useRef<AppRoute | undefined>(undefined);
  if (entered.current !== route) {
    entered.current = route;
    route?.Screen.preload().catch(() => undefined);
    route?.prefetch?.(new URLSearchParams(search));
  }

  if (!route) {
    return (
      <AppLayout>
        <NotFoundPage />
      </AppLayout>
    );
  }
  const { Screen } = route;
  return (
    <AppLayout>
      <Route path={route.path}>
        {route.signedIn ? (
          <RequireSession>
            <Screen />
          </RequireSession>
        ) : (
          <Screen />
        )}
      </Route>
    </AppLayout>
  );
}
