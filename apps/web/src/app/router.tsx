import type { ComponentType } from "react";
import { createBrowserRouter } from "react-router";
import { RequireSession } from "../session/require-session.js";
import { prefetching, type RouteServices } from "../session/route-prefetch.js";
import { Loading } from "../ui/loading.js";
import { NotFoundPage } from "../ui/not-found-page.js";
import { AppLayout } from "../ui/shell/app-layout.js";

/**
 * Every screen is its own chunk, loaded when its route is first visited, so a
 * visitor downloads only what the page in front of them needs.
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

export function createRouter(services: RouteServices) {
  const statsScreen = () => import("../features/stats/stats-page.js");
  return createBrowserRouter([
    {
      element: <AppLayout />,
      // Shown while the first screen's chunk loads.
      HydrateFallback: Loading,
      children: [
        {
          path: "/",
          lazy: screen(
            () => import("../features/home/home-page.js"),
            (m) => m.HomePage,
          ),
        },
        {
          path: "/sign-in",
          lazy: screen(
            () => import("../features/auth/sign-in-page.js"),
            (m) => m.SignInPage,
          ),
        },
        {
          path: "/sign-up",
          lazy: screen(
            () => import("../features/auth/sign-up-page.js"),
            (m) => m.SignUpPage,
          ),
        },
        {
          path: "/forgot-password",
          lazy: screen(
            () => import("../features/auth/forgot-password-page.js"),
            (m) => m.ForgotPasswordPage,
          ),
        },
        {
          path: "/reset-password",
          lazy: screen(
            () => import("../features/auth/reset-password-page.js"),
            (m) => m.ResetPasswordPage,
          ),
        },
        {
          path: "/auth/callback",
          lazy: screen(
            () => import("../features/auth/auth-callback-page.js"),
            (m) => m.AuthCallbackPage,
          ),
        },
        {
          path: "/invite/:token",
          lazy: screen(
            () => import("../features/invite/invite-page.js"),
            (m) => m.InvitePage,
          ),
        },
        {
          path: "/explore",
          lazy: screen(
            () => import("../features/explore/explore-page.js"),
            (m) => m.ExplorePage,
          ),
        },
        {
          element: <RequireSession />,
          children: [
            {
              path: "/decks",
              lazy: screen(
                () => import("../features/decks/decks-page.js"),
                (m) => m.DecksPage,
              ),
            },
            {
              path: "/decks/:deckId",
              lazy: screen(
                () => import("../features/note-browser/deck-page.js"),
                (m) => m.DeckPage,
              ),
            },
            {
              path: "/decks/:deckId/history",
              lazy: screen(
                () => import("../features/note-history/deck-history-page.js"),
                (m) => m.DeckHistoryPage,
              ),
            },
            {
              path: "/decks/:deckId/deleted",
              lazy: screen(
                () => import("../features/deleted-notes/deleted-notes-page.js"),
                (m) => m.DeletedNotesPage,
              ),
            },
            {
              path: "/decks/:deckId/study",
              lazy: screen(
                () => import("../features/study/study-page.js"),
                (m) => m.StudyPage,
              ),
            },
            {
              path: "/decks/:deckId/custom-study",
              lazy: screen(
                () => import("../features/study/custom-study-page.js"),
                (m) => m.CustomStudyPage,
              ),
            },
            {
              path: "/import",
              lazy: screen(
                () => import("../features/import/import-page.js"),
                (m) => m.ImportPage,
              ),
            },
            {
              path: "/settings",
              lazy: screen(
                () => import("../features/settings/settings-page.js"),
                (m) => m.SettingsPage,
              ),
            },
            {
              path: "/stats",
              loader: prefetching(services, statsScreen, (m) => m.prefetchStats),
              lazy: screen(statsScreen, (m) => m.StatsPage),
            },
            {
              path: "/decks/:deckId/settings",
              lazy: screen(
                () => import("../features/deck-settings/deck-settings-page.js"),
                (m) => m.DeckSettingsPage,
              ),
            },
            {
              path: "/decks/:deckId/suggestions",
              lazy: screen(
                () => import("../features/suggestions/review-page.js"),
                (m) => m.ReviewPage,
              ),
            },
            {
              path: "/suggestions",
              lazy: screen(
                () => import("../features/suggestions/my-suggestions-page.js"),
                (m) => m.MySuggestionsPage,
              ),
            },
            {
              path: "/study",
              lazy: screen(
                () => import("../features/study/study-page.js"),
                (m) => m.StudyPage,
              ),
            },
          ],
        },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ]);
}
