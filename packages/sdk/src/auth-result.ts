/** auth-js answers `{ data, error }`; this returns the data or throws the mapped EngramError. */
import type { AuthError } from "@supabase/supabase-js";
import { fromAuthError, toEngramError } from "./errors.js";

/** The data of `{ data, error: null }`, the first of auth-js's `{ data, error: null } | { data: nulls, error }`. */
export async function authResult<R extends { data: unknown; error: AuthError | null }>(
  request: Promise<R>,
): Promise<NonNullable<Extract<R, { error: null }>["data"]>> {
  let result: R;
  try {
    result = await request;
  } catch (error) {
    throw toEngramError(error);
  }
  if (result.error) throw fromAuthError(result.error);
  return result.data as NonNullable<Extract<R, { error: null }>["data"]>;
}
