/**
 * The one error type every SDK call throws, with a stable `code` the UI maps
 * to a message (docs/product.md §8). The original error is kept as `cause`.
 */
export const engramErrorCodes = [
  "auth/invalid-credentials",
  "auth/email-not-confirmed",
  "auth/user-exists",
  "auth/weak-password",
  "auth/rate-limited",
  "auth/session-expired",
  "auth/link-expired",
  "permission-denied",
  "not-found",
  "validation",
  "conflict",
  "note/conflict",
  "note-history/type-changed",
  "note-type/in-use",
  "note-type/conflict",
  "search/syntax",
  "quota-exceeded",
  "import/unsupported-format",
  "import/corrupt-file",
  "network",
  "internal",
] as const;

export type EngramErrorCode = (typeof engramErrorCodes)[number];

export interface EngramErrorOptions {
  /** For `validation`: the field at fault and the rule it broke. */
  field?: string;
  rule?: string;
  /** Extra machine-readable context, e.g. the current schedule on a conflict. */
  detail?: unknown;
  cause?: unknown;
}

export class EngramError extends Error {
  override readonly name = "EngramError";
  readonly code: EngramErrorCode;
  readonly field: string | undefined;
  readonly rule: string | undefined;
  readonly detail: unknown;

  constructor(code: EngramErrorCode, message: string, options: EngramErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.field = options.field;
    this.rule = options.rule;
    this.detail = options.detail;
  }
}

/** The error body PostgREST returns (and supabase-js exposes as PostgrestError). */
export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

// The constraint's name is the rule, e.g. `notes_front_required`.
const constraintPattern = /violates check constraint "(?<name>[^"]+)"/;

/**
 * Maps a database error (SQLSTATE codes documented in supabase/README.md) to an
 * EngramError. postgrest-js reports a failed fetch as status 0 with no SQLSTATE.
 */
export function fromPostgrestError(error: PostgrestErrorBody, status?: number): EngramError {
  const { code, message, details } = error;
  const options = { cause: error };
  if (status === 0) return new EngramError("network", "The server could not be reached.", options);
  switch (code) {
    case "42501":
    case "PGRST301":
      return new EngramError("permission-denied", message, options);
    case "PT404":
    case "PGRST116":
    case "PGRST205":
      return new EngramError("not-found", message, { ...options, field: details || undefined });
    case "PT409":
      return new EngramError("conflict", message, { ...options, detail: parseJson(details) });
    case "PT412":
      return new EngramError("note/conflict", message, { ...options, detail: parseJson(details) });
    case "PT410":
      return new EngramError("not-found", message, { ...options, rule: details || undefined });
    case "PT413":
      return new EngramError("quota-exceeded", message, { ...options, field: details || undefined });
    // A regular expression in a search that does not compile or could run too long.
    case "2201B":
      return new EngramError("search/syntax", message, options);
    case "22023":
      return new EngramError("validation", message, { ...options, field: details || undefined });
    case "23514": {
      const match = constraintPattern.exec(message);
      return new EngramError("validation", message, {
        ...options,
        rule: match?.groups?.name,
      });
    }
    case "23505":
      return new EngramError("conflict", message, options);
    case "22P02":
    case "23502":
    case "23503":
      return new EngramError("validation", message, options);
    default:
      return new EngramError("internal", message, options);
  }
}

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What auth-js exposes on its errors (AuthApiError, AuthSessionMissingError, AuthRetryableFetchError…). */
interface AuthErrorLike {
  name: string;
  message: string;
  status?: number | undefined;
  code?: string | undefined;
}

const authCodes: Record<string, EngramErrorCode> = {
  invalid_credentials: "auth/invalid-credentials",
  email_not_confirmed: "auth/email-not-confirmed",
  user_already_exists: "auth/user-exists",
  email_exists: "auth/user-exists",
  weak_password: "auth/weak-password",
  same_password: "auth/weak-password",
  over_request_rate_limit: "auth/rate-limited",
  over_email_send_rate_limit: "auth/rate-limited",
  over_sms_send_rate_limit: "auth/rate-limited",
  session_not_found: "auth/session-expired",
  session_expired: "auth/session-expired",
  refresh_token_not_found: "auth/session-expired",
  refresh_token_already_used: "auth/session-expired",
  bad_jwt: "auth/session-expired",
  no_authorization: "auth/session-expired",
  otp_expired: "auth/link-expired",
  flow_state_expired: "auth/link-expired",
  flow_state_not_found: "auth/link-expired",
  bad_code_verifier: "auth/link-expired",
  validation_failed: "validation",
  email_address_invalid: "validation",
  email_address_not_authorized: "validation",
  not_admin: "permission-denied",
  user_not_found: "not-found",
  // Two-factor sign-in (TOTP).
  mfa_verification_failed: "validation",
  mfa_challenge_expired: "validation",
  mfa_ip_address_mismatch: "validation",
  mfa_factor_name_conflict: "validation",
  mfa_factor_not_found: "not-found",
  too_many_enrolled_mfa_factors: "quota-exceeded",
  insufficient_aal: "permission-denied",
  mfa_totp_enroll_not_enabled: "permission-denied",
  mfa_totp_verify_not_enabled: "permission-denied",
  // A code already accepted within its 90 s: the server ends every session of the user.
  mfa_verification_rejected: "auth/session-expired",
};

/** The form field an auth error is about, where it is one. */
const authFields: Record<string, string> = {
  mfa_verification_failed: "code",
  mfa_challenge_expired: "code",
  mfa_ip_address_mismatch: "code",
  mfa_factor_name_conflict: "friendlyName",
};

/** The rule an auth error broke, where the UI words it apart from its code. */
const authRules: Record<string, string> = {
  // A user with two-factor sign-in must enter the authenticator's code first.
  insufficient_aal: "aal2",
  // Entered again within its 90 s: the next code from the app is needed.
  mfa_verification_rejected: "code_reused",
};

/** Maps an auth-js error (GoTrue's `error_code`, or the client's own error classes). */
export function fromAuthError(error: AuthErrorLike): EngramError {
  const options = { cause: error };
  if (error.name === "AuthRetryableFetchError") {
    return new EngramError("network", "The server could not be reached.", options);
  }
  if (error.name === "AuthSessionMissingError" || error.name === "AuthInvalidTokenResponseError") {
    return new EngramError("auth/session-expired", "Your session has ended. Sign in again.", options);
  }
  if (error.name === "AuthPKCECodeVerifierMissingError") {
    // The link was opened in a browser other than the one that asked for it.
    return new EngramError("auth/link-expired", "This link was opened in another browser.", {
      ...options,
      rule: "code_verifier_missing",
    });
  }
  if (error.name === "AuthPKCEGrantCodeExchangeError" || error.name === "AuthImplicitGrantRedirectError") {
    return new EngramError("auth/link-expired", "This link has expired or was already used.", options);
  }
  const mapped = error.code ? authCodes[error.code] : undefined;
  if (mapped) {
    return new EngramError(mapped, error.message, {
      ...options,
      field: error.code && authFields[error.code],
      rule: error.code && authRules[error.code],
    });
  }
  if (error.status === 429) return new EngramError("auth/rate-limited", error.message, options);
  if (error.status === 422 || error.status === 400) return new EngramError("validation", error.message, options);
  return new EngramError("internal", error.message, options);
}

/** What storage-js exposes: StorageApiError carries the HTTP status; StorageUnknownError wraps a failed fetch. */
interface StorageErrorLike {
  name: string;
  message: string;
  status?: number | string | undefined;
  statusCode?: string | undefined;
}

/** Maps a storage-js error. Storage answers RLS refusals as 400 with statusCode "403". */
export function fromStorageError(error: StorageErrorLike): EngramError {
  const options = { cause: error };
  if (error.name === "StorageUnknownError") {
    return new EngramError("network", "The server could not be reached.", options);
  }
  const status = Number(error.statusCode ?? error.status);
  switch (status) {
    case 401:
    case 403:
      return new EngramError("permission-denied", error.message, options);
    case 404:
      return new EngramError("not-found", error.message, options);
    case 409:
      return new EngramError("conflict", error.message, options);
    case 413:
      return new EngramError("quota-exceeded", error.message, options);
    case 400:
    case 415:
    case 422:
      return new EngramError("validation", error.message, options);
    default:
      return new EngramError("internal", error.message, options);
  }
}

/** The JSON body Engram's edge functions answer errors with. */
interface FunctionErrorBody {
  code?: string;
  message?: string;
}

const functionCodes: Record<string, EngramErrorCode> = {
  not_authenticated: "auth/session-expired",
  forbidden: "permission-denied",
  insufficient_aal: "permission-denied",
  not_found: "not-found",
  invalid_input: "validation",
  too_large: "quota-exceeded",
  unsupported_format: "import/unsupported-format",
  corrupt_file: "import/corrupt-file",
};

/**
 * Maps a functions-js error. FunctionsHttpError keeps the Response as `context`;
 * its JSON body carries the function's own `code`.
 */
export async function fromFunctionsError(error: {
  name: string;
  message: string;
  context?: unknown;
}): Promise<EngramError> {
  const options = { cause: error };
  if (error.name === "FunctionsFetchError") {
    return new EngramError("network", "The server could not be reached.", options);
  }
  const response = error.context instanceof Response ? error.context : undefined;
  if (!response) return new EngramError("internal", error.message, options);
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as FunctionErrorBody;
  const message = body.message ?? error.message;
  const mapped = body.code ? functionCodes[body.code] : undefined;
  if (mapped) return new EngramError(mapped, message, { ...options, rule: body.code && authRules[body.code] });
  if (response.status === 401) return new EngramError("auth/session-expired", message, options);
  if (response.status === 403) return new EngramError("permission-denied", message, options);
  if (response.status === 404) return new EngramError("not-found", message, options);
  if (response.status === 413) return new EngramError("quota-exceeded", message, options);
  if (response.status === 429) return new EngramError("auth/rate-limited", message, options);
  return new EngramError("internal", message, options);
}

/** Maps a subscription failure from realtime-js (the server's reason or a transport error) to an EngramError. */
export function fromChannelError(error: unknown): EngramError {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  if (/unauthori[sz]ed|permission/i.test(message)) {
    return new EngramError("permission-denied", "You may not join this channel.", { cause: error });
  }
  if (/jwt|token/i.test(message)) {
    return new EngramError("auth/session-expired", "Sign in again to receive live updates.", { cause: error });
  }
  if (/socket|transport|connection|timed out|timeout/i.test(message) || !message) {
    return new EngramError("network", "The realtime server could not be reached.", { cause: error });
  }
  return new EngramError("internal", "The live updates could not be started.", { cause: error });
}

/**
 * realtime-js reports a refused push only as "error": on a private channel the
 * server refuses a track or broadcast when the policies do not let the user write.
 */
export function fromSendStatus(status: string): EngramError {
  return status === "timed out"
    ? new EngramError("network", "The realtime server could not be reached.")
    : new EngramError("permission-denied", "You may not send to this deck's channel.", { detail: status });
}

/** Anything thrown below the SDK (a fetch TypeError, a bug) as an EngramError. */
export function toEngramError(error: unknown): EngramError {
  if (error instanceof EngramError) return error;
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return new EngramError("network", "The server could not be reached.", { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngramError("internal", message, { cause: error });
}
