/** PostgREST's error body and the one place SQLSTATEs become HTTP statuses. */

export interface ErrorBody {
  code: string;
  details: unknown;
  hint: string | null;
  message: string;
}

/** An error the API answers with a given status and PostgREST-shaped body. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  get body(): ErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

export const parseError = (message: string, details: string | null = null) =>
  new ApiError(400, "PGRST100", message, details);

interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code)
  );
}

/** `pgErrorStatus` of PostgREST's Error.hs. */
export function pgErrorStatus(code: string, message: string, isAnon: boolean): number {
  const prefix = code.slice(0, 2);
  if (code.startsWith("PT") && /^PT\d{3}$/.test(code)) return Number(code.slice(2));
  switch (code) {
    case "23503":
    case "23505":
      return 409;
    case "25006":
      return 405;
    case "21000":
      return message.endsWith("requires a WHERE clause") ? 400 : 500;
    case "22023":
      return /role .* does not exist/.test(message) ? 401 : 400;
    case "53400":
      return 500;
    case "57P01":
      return 503;
    case "P0001":
      return 400;
    case "42883":
      return 404;
    case "42P01":
      return 404;
    case "42P17":
      return 500;
    case "42501":
      return isAnon ? 401 : 403;
  }
  if (prefix === "08" || prefix === "53") return 503;
  if (prefix === "0L" || prefix === "0P" || prefix === "28") return 403;
  if (["09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX"].includes(prefix)) {
    return 500;
  }
  return 400;
}

/** Any thrown value as an ApiError; unknown failures are 500s rather than leaks of internals. */
export function toApiError(error: unknown, isAnon: boolean): ApiError {
  if (error instanceof ApiError) return error;
  if (isPgError(error)) {
    return new ApiError(
      pgErrorStatus(error.code, error.message, isAnon),
      error.code,
      error.message,
      error.detail ?? null,
      error.hint ?? null,
    );
  }
  return new ApiError(500, "PGRST000", error instanceof Error ? error.message : String(error));
}
