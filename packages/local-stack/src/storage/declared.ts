/**
 * What a Storage request declares about the object it writes, read as Storage
 * reads it: the `x-metadata` header, the request's length, and whether a
 * declared type is one a bucket's `allowed_mime_types` takes.
 */
import type { Context } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { errors } from "./errors.js";

/** The `x-metadata` header: base64 of a JSON value; anything unreadable is ignored, as Storage ignores it. */
export function userMetadataHeader(c: Context<StackEnv>): unknown {
  const header = c.req.header("x-metadata");
  if (!header) return undefined;
  return parseJson(Buffer.from(header, "base64").toString("utf8"));
}

/** A JSON text, or undefined when it is not one (Storage drops unparsable user metadata silently). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The request's Content-Length (multipart framing included); undefined when not sent, as for a chunked body. */
export function declaredLength(c: Context<StackEnv>): number | undefined {
  const header = c.req.header("content-length");
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isFinite(length) && length >= 0 ? length : undefined;
}

/** Storage keeps an empty folder as this placeholder object, exempt from the bucket's types (and 0 bytes at most). */
export function isEmptyFolder(key: string): boolean {
  return key.endsWith(".emptyFolderPlaceholder");
}

/**
 * Storage's `validateMimeType`: the declared type split at `/` and compared
 * with each allowed type exactly as written (case and parameters included,
 * so `text/plain; charset=utf-8` is not `text/plain`); an allowed `type/*`
 * takes any subtype of that type. A type without `/` is refused.
 */
export function checkMimeType(allowed: string[] | null, mimetype: string): void {
  if (!allowed || allowed.length === 0) return;
  const requested = mimetype.split("/");
  if (requested.length < 2) throw errors.invalidMimeType(mimetype);
  const [type, subtype] = requested;
  const ok = allowed.some((pattern) => {
    const [allowedType, allowedSubtype] = pattern.split("/");
    return allowedType === type && (allowedSubtype === "*" || allowedSubtype === subtype);
  });
  if (!ok) throw errors.invalidMimeType(mimetype);
}
