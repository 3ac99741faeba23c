import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The API version auth-js sends; GoTrue echoes it and then answers errors as `{code, message}`. */
export const apiVersion = "2024-01-01";

/** One GoTrue error: an HTTP status, a stable `error_code` and GoTrue's message. */
export class AuthError extends Error {
  override readonly name = "AuthError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An OAuth-style error (`{error, error_description}`), as GoTrue's token endpoint answers for bad grants. */
export class OAuthError extends Error {
  override readonly name = "OAuthError";
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);

/** Whether the request asked for the 2024-01-01 API (auth-js always does); GoTrue echoes the header only then. */
export const wantsVersioned = (c: Context) => (c.req.header("x-supabase-api-version") ?? "") >= apiVersion;

/** The error body for the caller's API version (legacy clients get `{code: <status>, error_code, msg}`). */
export function errorResponse(c: Context, thrown: unknown): Response {
  const versioned = wantsVersioned(c);
  if (versioned) c.header("X-Supabase-Api-Version", apiVersion);
  if (thrown instanceof OAuthError) {
    return c.json({ error: thrown.error, error_description: thrown.message }, 400);
  }
  if (!(thrown instanceof AuthError)) console.error(thrown);
  const error =
    thrown instanceof AuthError
      ? thrown
      : new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
  c.header("x-sb-error-code", error.code);
  const body = versioned
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  return c.json(body, error.status);
}
