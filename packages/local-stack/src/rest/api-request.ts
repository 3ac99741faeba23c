/** One API request as the handlers see it, and the relation its path names. */
import type { Stack } from "../stack.js";
import type { Caller } from "./context.js";
import { ApiError } from "./errors.js";
import type { MediaType, Preferences } from "./preferences.js";
import { findRelation, type Relation, type SchemaCache } from "./schema-cache.js";

/** Everything a handler needs about one request. */
export interface ApiRequest {
  stack: Stack;
  cache: SchemaCache;
  caller: Caller;
  schema: string;
  method: string;
  path: string;
  headers: Headers;
  /** The headers as `request.headers` holds them. */
  headerRecord: Record<string, string>;
  query: URLSearchParams;
  prefs: Preferences;
  media: MediaType;
  stripNulls: boolean;
  rawBody: string;
  /** The body as sent, for a bytea parameter. */
  rawBytes: Uint8Array;
  /** Set for an RPC whose function carries its own statement_timeout. */
  statementTimeout?: string | null;
}

export function relationOf(req: ApiRequest, name: string): Relation {
  const relation = findRelation(req.cache, req.schema, name);
  if (!relation) {
    throw new ApiError(404, "PGRST205", `Could not find the table '${req.schema}.${name}' in the schema cache`);
  }
  return relation;
}
