/** Checks on a statement's result that may still fail the request and roll its transaction back. */
import type { ApiRequest } from "./api-request.js";
import { ApiError } from "./errors.js";
import type { QueryResult } from "./respond.js";

/**
 * `Prefer: handling=strict, max-affected=N`: more rows than N fail the
 * request (PGRST124) and roll it back; `affected` says for which requests it counts.
 */
export function maxAffectedCheck(req: ApiRequest, affected: boolean): ((r: QueryResult) => void) | undefined {
  const { strict, maxAffected } = req.prefs;
  if (!strict || maxAffected === null || !affected) return undefined;
  return (r) => {
    if (r.pageCount > maxAffected) {
      throw new ApiError(
        400,
        "PGRST124",
        "Query result exceeds max-affected preference constraint",
        `The query affects ${r.pageCount} rows`,
      );
    }
  };
}

/** Checks run in order on the result before the transaction ends; none means no wait. */
export function allChecks(
  ...checks: (((r: QueryResult) => void) | undefined)[]
): ((r: QueryResult) => void) | undefined {
  const present = checks.filter((c): c is (r: QueryResult) => void => c !== undefined);
  if (present.length === 0) return undefined;
  return (r) => {
    for (const check of present) check(r);
  };
}
