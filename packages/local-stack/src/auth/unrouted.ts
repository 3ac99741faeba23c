/**
 * What GoTrue answers where no handler of this server matched: its router's
 * 405 for a path it serves with other methods, the JSON errors of the features
 * the CLI leaves off (SAML, manual identity linking), and otherwise its
 * router's plain-text 404 — GoTrue has no JSON not-found handler.
 */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Auth } from "./context.js";
import { AuthError } from "./errors.js";
import { authenticate } from "./sessions.js";

type Guard = "user" | "admin" | "saml" | "linking" | "passkey" | "oauthServer" | "customOAuth";

interface Route {
  path: RegExp;
  methods: string[];
  /** Middleware GoTrue runs before its router looks at the method. */
  guards?: Guard[];
}

const segment = "[^/]+";
const route = (path: string, methods: string[], guards?: Guard[]): Route => ({
  path: new RegExp(`^${path.replaceAll(":id", segment)}/?$`),
  methods,
  ...(guards ? { guards } : {}),
});

// GoTrue's routes (internal/api/api.go) as the CLI enables them.
const routes: Route[] = [
  route("/health", ["GET"]),
  route("/\\.well-known/jwks\\.json", ["GET"]),
  route("/\\.well-known/openid-configuration", ["GET"]),
  route("/\\.well-known/oauth-authorization-server", ["GET"], ["oauthServer"]),
  route("/callback", ["GET", "POST"]),
  route("/settings", ["GET"]),
  route("/authorize", ["GET"]),
  route("/invite", ["POST"]),
  route("/signup", ["POST"]),
  route("/recover", ["POST"]),
  route("/resend", ["POST"]),
  route("/magiclink", ["POST"]),
  route("/otp", ["POST"]),
  route("/token", ["POST"]),
  route("/verify", ["GET", "POST"]),
  route("/logout", ["POST"]),
  route("/reauthenticate", ["GET"], ["user"]),
  route("/user", ["GET", "PUT"], ["user"]),
  route("/user/identities/authorize", ["GET"], ["user", "linking"]),
  route("/user/identities/:id", ["DELETE"], ["user", "linking"]),
  route("/user/oauth/grants", ["GET", "DELETE"], ["user", "oauthServer"]),
  route("/factors", ["POST"], ["user"]),
  route("/factors/:id", ["DELETE"], ["user"]),
  route("/factors/:id/verify", ["POST"], ["user"]),
  route("/factors/:id/challenge", ["POST"], ["user"]),
  route("/passkeys", ["GET"], ["passkey", "user"]),
  route("/passkeys/authentication/options", ["POST"], ["passkey"]),
  route("/passkeys/authentication/verify", ["POST"], ["passkey"]),
  route("/passkeys/registration/options", ["POST"], ["passkey", "user"]),
  route("/passkeys/registration/verify", ["POST"], ["passkey", "user"]),
  route("/passkeys/:id", ["PATCH", "DELETE"], ["passkey", "user"]),
  route("/oauth/clients/register", ["POST"], ["oauthServer"]),
  route("/oauth/token", ["POST"], ["oauthServer"]),
  route("/oauth/userinfo", ["GET"], ["oauthServer", "user"]),
  route("/oauth/authorize", ["GET"], ["oauthServer"]),
  route("/oauth/authorizations/:id", ["GET"], ["oauthServer", "user"]),
  route("/oauth/authorizations/:id/consent", ["POST"], ["oauthServer", "user"]),
  route("/sso", ["POST"], ["saml"]),
  route("/sso/saml/metadata", ["GET"], ["saml"]),
  route("/sso/saml/acs", ["POST"], ["saml"]),
  route("/admin/audit", ["GET"], ["admin"]),
  route("/admin/users", ["GET", "POST"], ["admin"]),
  route("/admin/users/:id", ["GET", "PUT", "DELETE"], ["admin"]),
  route("/admin/users/:id/factors", ["GET"], ["admin"]),
  route("/admin/users/:id/factors/:id", ["PUT", "DELETE"], ["admin"]),
  route("/admin/users/:id/passkeys", ["GET"], ["admin"]),
  route("/admin/users/:id/passkeys/:id", ["DELETE"], ["admin"]),
  route("/admin/generate_link", ["POST"], ["admin"]),
  route("/admin/oauth/clients", ["GET", "POST"], ["admin", "oauthServer"]),
  route("/admin/oauth/clients/:id", ["GET", "PUT", "DELETE"], ["admin", "oauthServer"]),
  route("/admin/oauth/clients/:id/regenerate_secret", ["POST"], ["admin", "oauthServer"]),
  route("/admin/custom-providers", ["GET", "POST"], ["admin", "customOAuth"]),
  route("/admin/custom-providers/:id", ["GET", "PUT", "DELETE"], ["admin", "customOAuth"]),
  route("/admin/sso/providers", ["GET", "POST"], ["admin"]),
  route("/admin/sso/providers/:id", ["GET", "PUT", "DELETE"], ["admin"]),
];

// The OAuth providers GoTrue knows; the CLI enables none unless config.toml does.
const oauthProviders = new Set(
  "apple azure bitbucket discord facebook figma fly github gitlab google kakao keycloak linkedin linkedin_oidc notion slack slack_oidc spotify twitch twitter workos zoom".split(
    " ",
  ),
);

/** `GET /authorize` with every provider off: GoTrue's `Unsupported provider` validation error. */
function unsupportedProvider(name: string): AuthError {
  const reason = oauthProviders.has(name.toLowerCase())
    ? "provider is not enabled"
    : `Provider ${name} could not be found`;
  return new AuthError(400, "validation_failed", `Unsupported provider: ${reason}`);
}

/** The last handler of the auth router: GoTrue's answer for what nothing else handled. */
export function unroutedRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.all("*", async (c) => {
    const path = c.req.path.replace(/^.*?\/auth\/v1/, "") || "/";
    const known = routes.find((candidate) => candidate.path.test(path));
    // chi's http.NotFound.
    if (!known) {
      c.header("X-Content-Type-Options", "nosniff");
      return c.text("404 page not found\n", 404);
    }
    for (const guard of known.guards ?? []) {
      if (guard === "user") await authenticate(auth.stack, c.get("bearer"));
      if (guard === "saml") throw new AuthError(404, "saml_provider_disabled", "SAML 2.0 is disabled");
      if (guard === "linking") throw new AuthError(404, "manual_linking_disabled", "Manual linking is disabled");
      // The stack serves none of these, so it answers as GoTrue with them off (config.toml's are named at start).
      if (guard === "passkey") throw new AuthError(404, "passkey_disabled", "Passkeys are disabled");
      if (guard === "oauthServer") throw new AuthError(404, "feature_disabled", "OAuth server is disabled");
      if (guard === "customOAuth") throw new AuthError(404, "feature_disabled", "Custom OAuth providers are disabled");
      // "admin": the admin router's middleware has already checked the caller.
    }
    if (known.methods.includes(c.req.method)) {
      if (path.startsWith("/authorize")) throw unsupportedProvider(c.req.query("provider") ?? "");
      // GoTrue serves it; this stack does not (README lists these).
      throw new AuthError(404, "feature_disabled", `${c.req.method} ${path} is not served by this stack`);
    }
    // chi's 405: the allowed methods and no body.
    for (const method of known.methods) c.header("Allow", method, { append: true });
    return c.body(null, 405);
  });
  return app;
}
