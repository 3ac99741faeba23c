/** Object keys and bucket names from request paths, refusing anything that could leave the bucket's directory. */
import { errors } from "./errors.js";

/**
 * The part of the raw (still percent-encoded) request path after `prefix`,
 * e.g. `avatars/a%20b.png` for `/storage/v1/object/avatars/a%20b.png` and prefix `/object/`.
 */
export function rawTail(url: string, prefix: string): string {
  const pathname = new URL(url).pathname;
  const at = pathname.indexOf(prefix);
  return at < 0 ? "" : pathname.slice(at + prefix.length);
}

/** Splits `<bucket>/<key>` (percent-encoded) into a checked bucket name and object key. */
export function bucketAndKey(raw: string): { bucket: string; key: string } {
  const slash = raw.indexOf("/");
  const bucket = decodeSegment(slash < 0 ? raw : raw.slice(0, slash), raw);
  checkBucketName(bucket);
  const key = (slash < 0 ? "" : raw.slice(slash + 1))
    .split("/")
    .map((part) => decodeSegment(part, raw))
    .join("/");
  return { bucket, key: checkKey(key) };
}

function decodeSegment(segment: string, whole: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.invalidKey(whole);
  }
}

// Storage's bucket names: S3-safe characters only, 1 to 100 of them (no slash, backslash or control character).
const bucketNameCharacters = /^[\w!\-.*'() &$@=;:+,?]+$/;

/** Bucket names as Storage accepts them, and never `.` or `..` (a bucket is a directory on disk). */
export function checkBucketName(name: unknown): string {
  if (
    typeof name !== "string" ||
    name.length > 100 ||
    !bucketNameCharacters.test(name) ||
    name.trim() !== name ||
    name === "." ||
    name === ".."
  ) {
    throw errors.invalidBucketName(String(name));
  }
  return name;
}

/**
 * A key is a `/`-separated path of non-empty segments: never absolute, never
 * `.`/`..`, no backslashes or control characters (NUL included).
 */
export function checkKey(key: unknown): string {
  if (typeof key !== "string" || key.length === 0 || key.length > 1024) throw errors.invalidKey(String(key));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (key.startsWith("/") || key.includes("\\") || /[\u0000-\u001f\u007f]/.test(key)) throw errors.invalidKey(key);
  for (const segment of key.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw errors.invalidKey(key);
  }
  return key;
}
