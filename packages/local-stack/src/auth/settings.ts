/** What the server says about itself: `/health`, `/settings` and the public signing keys. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { type Auth, anonymousSignInsEnabled } from "./context.js";

export function settingsRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;

  app.get("/health", (c) =>
    c.json({
      version: "local-stack",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    }),
  );
  app.get("/.well-known/jwks.json", (c) => {
    c.header("Cache-Control", "public, max-age=600");
    return c.json({ keys: stack.keys.jwks });
  });
  app.get("/settings", (c) => {
    const config = stack.config.auth;
    return c.json({
      external: { anonymous_users: anonymousSignInsEnabled(stack), email: config.email.enableSignup, phone: false },
      disable_signup: !config.enableSignup,
      mailer_autoconfirm: !config.email.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    });
  });
  return app;
}
