import type { ComponentType } from "react";
import { createBrowserRouter } from "react-router";
import { RequireSession } from "./session/require-session.js";
import { AppLayout } from "./shell/app-layout.js";
import { NotFoundPage } from "./shell/not-found-page.js";

/**
 * Every screen is its own chunk, loaded when its route is first visited, so a
 * visitor downloads only what the page in front of them needs.
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

export function createRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      children: [
        {
          path: "/",
          lazy: screen(
            () => import("./home/home-page.js"),
            (m) => m.HomePage,
          ),
        },
        {
          path: "/sign-in",
          lazy: screen(
            () => import("./auth/sign-in-page.js"),
            (m) => m.SignInPage,
          ),
        },
        {
          path: "/sign-up",
          lazy: screen(
            () => import("./auth/sign-up-page.js"),
            (m) => m.SignUpPage,
          ),
        },
        {
          path: "/forgot-password",
          lazy: screen(
            () => import("./auth/forgot-password-page.js"),
            (m) => m.ForgotPasswordPage,
          ),
        },
        {
          path: "/reset-password",
          lazy: screen(
            () => import("./auth/reset-password-page.js"),
            (m) => m.ResetPasswordPage,
          ),
        },
        {
          path: "/auth/callback",
          lazy: screen(
            () => import("./auth/auth-callback-page.js"),
            (m) => m.AuthCallbackPage,
          ),
        },
        {
          path: "/invite/:token",
          lazy: screen(
            () => import("./invite/invite-page.js"),
            (m) => m.InvitePage,
          ),
        },
        {
          path: "/explore",
          lazy: screen(
            () => import("./explore/explore-page.js"),
            (m) => m.ExplorePage,
          ),
        },
        {
          element: <RequireSession />,
          children: [
            {
              path: "/decks",
              lazy: screen(
                () => import("./decks/decks-page.js"),
                (m) => m.DecksPage,
              ),
            },
            {
              path: "/decks/:deckId",
              lazy: screen(
                () => import("./deck/deck-page.js"),
                (m) => m.DeckPage,
              ),
            },
            {
              path: "/decks/:deckId/study",
              lazy: screen(
                () => import("./study/study-page.js"),
                (m) => m.StudyPage,
              ),
            },
            {
              path: "/import",
              lazy: screen(
                () => import("./import/import-page.js"),
                (m) => m.ImportPage,
              ),
            },
            {
              path: "/settings",
              lazy: screen(
                () => import("./settings/settings-page.js"),
                (m) => m.SettingsPage,
              ),
            },
            {
              path: "/stats",
              lazy: screen(
                () => import("./stats/stats-page.js"),
                (m) => m.StatsPage,
              ),
            },
            {
              path: "/decks/:deckId/settings",
              lazy: screen(
                () => import("./deck-settings/deck-settings-page.js"),
                (m) => m.DeckSettingsPage,
              ),
            },
            {
              path: "/study",
              lazy: screen(
                () => import("./study/study-page.js"),
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
