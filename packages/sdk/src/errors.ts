/**
 * The one error type every SDK call throws, with a stable `code` the UI maps
 * to a message (PRODUCT.md §8). The original error is kept as `cause`.
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

/** Maps a database error (SQLSTATE codes documented in supabase/README.md) to an EngramError. */
export function fromPostgrestError(error: PostgrestErrorBody): EngramError {
  const { code, message, details } = error;
  const options = { cause: error };
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
    case "PT410":
      return new EngramError("not-found", message, { ...options, rule: details || undefined });
    case "PT413":
      return new EngramError("quota-exceeded", message, { ...options, field: details || undefined });
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
