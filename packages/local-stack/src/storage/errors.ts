/** Storage's error format: HTTP 400 for every non-500 error, the real status as a string inside the body. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class StorageError extends Error {
  constructor(
    /** The status Storage reports in the body (`statusCode`). */
    readonly status: number,
    readonly code: string,
    /** The legacy label clients show (`error`). */
    readonly label: string,
    message: string,
    /** The HTTP status, when not Storage's usual 400: Fastify's own errors keep theirs. */
    readonly httpStatus?: ContentfulStatusCode,
  ) {
    super(message);
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, "NoSuchBucket", "Bucket not found", "Bucket not found"),
  noSuchKey: () => new StorageError(404, "NoSuchKey", "not_found", "Object not found"),
  duplicate: () => new StorageError(409, "ResourceAlreadyExists", "Duplicate", "The resource already exists"),
  keyExists: () => new StorageError(409, "KeyAlreadyExists", "Duplicate", "The resource already exists"),
  bucketExists: () => new StorageError(409, "BucketAlreadyExists", "Duplicate", "The resource already exists"),
  accessDenied: (message = "new row violates row-level security policy") =>
    new StorageError(403, "AccessDenied", "Unauthorized", message),
  /** A bad bearer token: Storage's JWT plugin answers AccessDenied with the verifier's message. */
  invalidJwt: (message: string) => new StorageError(403, "AccessDenied", "Unauthorized", message),
  invalidSignature: (message = "Invalid signature") =>
    new StorageError(400, "InvalidSignature", "InvalidSignature", message),
  entityTooLarge: () =>
    new StorageError(413, "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size"),
  invalidMimeType: (mimeType: string) =>
    new StorageError(415, "InvalidMimeType", "invalid_mime_type", `mime type ${mimeType} is not supported`),
  invalidKey: (key: string) => new StorageError(400, "InvalidKey", "InvalidKey", `Invalid key: ${key}`),
  invalidBucketName: (_name: string) =>
    new StorageError(400, "InvalidBucketName", "Invalid Input", "Bucket name invalid"),
  invalidRequest: (message: string) => new StorageError(400, "InvalidRequest", "InvalidRequest", message),
  invalidFileSizeLimit: () =>
    new StorageError(
      400,
      "InvalidRequest",
      "InvalidRequest",
      "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B",
    ),
  /** Fastify's FST_ERR_CTP_BODY_TOO_LARGE, as Storage's error handler renders it. */
  bodyTooLarge: () => new StorageError(413, "EntityTooLarge", "FastifyError", "Request body is too large", 413),
  noContentProvided: () => new StorageError(400, "InvalidRequest", "InvalidRequest", "No content provided"),
  notEmpty: () =>
    new StorageError(409, "ResourceNotEmpty", "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
};

/** Maps database errors the way Storage's error handler does: RLS → 403, unique → 409, missing bucket FK → 404. */
export function fromDatabaseError(error: unknown): StorageError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "42501") return errors.accessDenied();
  if (code === "23505") return errors.duplicate();
  if (code === "23503") return errors.noSuchBucket();
  return null;
}

/** A path Storage has no route for: Fastify's own 404, naming the path as Storage sees it (without `/storage/v1`). */
export function routeNotFound(c: Context): Response {
  const path = new URL(c.req.url).pathname.replace(/^\/storage\/v1/, "");
  return c.json({ statusCode: 404, error: "Not Found", message: `Route ${c.req.method}:${path} not found` }, 404);
}

export function errorResponse(c: Context, error: unknown): Response {
  const known = error instanceof StorageError ? error : fromDatabaseError(error);
  if (!known) {
    const message = error instanceof Error ? error.message : String(error);
    return c.json({ statusCode: "500", code: "InternalError", error: "internal", message }, 500);
  }
  return c.json(
    { statusCode: String(known.status), code: known.code, error: known.label, message: known.message },
    known.httpStatus ?? (known.status === 500 ? 500 : 400),
  );
}
