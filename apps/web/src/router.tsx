import { createBrowserRouter } from "react-router";
import { AuthCallbackPage } from "./auth/auth-callback-page.js";
import { ForgotPasswordPage } from "./auth/forgot-password-page.js";
import { ResetPasswordPage } from "./auth/reset-password-page.js";
import { SignInPage } from "./auth/sign-in-page.js";
import { SignUpPage } from "./auth/sign-up-page.js";
import { DecksPage } from "./decks/decks-page.js";
import { HomePage } from "./home/home-page.js";
import { RequireSession } from "./session/require-session.js";
import { AppLayout } from "./shell/app-layout.js";
import { NotFoundPage } from "./shell/not-found-page.js";

export function createRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      children: [
        { path: "/", element: <HomePage /> },
        { path: "/sign-in", element: <SignInPage /> },
        { path: "/sign-up", element: <SignUpPage /> },
        { path: "/forgot-password", element: <ForgotPasswordPage /> },
        { path: "/reset-password", element: <ResetPasswordPage /> },
        { path: "/auth/callback", element: <AuthCallbackPage /> },
        {
          element: <RequireSession />,
          children: [{ path: "/decks", element: <DecksPage /> }],
        },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ]);
}
