/** Reading an upload (raw body or multipart with the file under an empty field name) and storing it. */
import { createHash, randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { type Bucket, findBucket } from "./bucket-rows.js";
import { checkContent } from "./content.js";
import type { Caller } from "./context.js";
import { asCallerRolledBack, lockObject, ownerOf, transact } from "./context.js";
import { checkMimeType, declaredLength, isEmptyFolder, parseJson, userMetadataHeader } from "./declared.js";
import { errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { existingObject, insertObject, insertTrialObject } from "./object-rows.js";

interface Upload {
  bytes: Uint8Array;
  mimetype: string;
  cacheControl: string;
  userMetadata: unknown;
}

/** The metadata jsonb Storage keeps for every object. */
export function objectMetadata(bytes: Uint8Array, mimetype: string, cacheControl: string) {
  return {
    eTag: `"${createHash("md5").update(bytes).digest("hex")}"`,
    size: bytes.byteLength,
    mimetype,
    cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: bytes.byteLength,
    httpStatusCode: 200,
  };
}

/** Bucket limit capped by the global one, as Storage applies them; an empty folder's placeholder holds nothing. */
function sizeLimitOf(stack: Stack, bucket: Bucket, key: string): number {
  if (isEmptyFolder(key)) return 0;
  const global = stack.config.storage.fileSizeLimit;
  return bucket.file_size_limit === null ? global : Math.min(bucket.file_size_limit, global);
}

async function readUpload(c: Context<StackEnv>, limit: number): Promise<Upload> {
  const length = Number(c.req.header("content-length") ?? "0");
  // Multipart framing adds a little; the file itself is checked exactly below.
  if (length > limit + 64 * 1024) throw errors.entityTooLarge();
  const contentType = c.req.header("content-type") ?? "";
  let upload: Upload;
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await c.req.raw.formData();
    } catch {
      throw errors.invalidRequest("Malformed multipart body");
    }
    let file: File | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") continue;
      if (name === "" || file === null) file = value;
      if (name === "") break;
    }
    if (!file) throw errors.invalidRequest("No file found in the multipart body");
    const cacheControl = form.get("cacheControl");
    const explicitType = form.get("contentType");
    const metadata = form.get("metadata") ?? form.get("userMetadata");
    upload = {
      bytes: new Uint8Array(await file.arrayBuffer()),
      // Storage's multipart parser (busboy) gives a part's type lowercased, without parameters, text/plain when absent.
      mimetype: (typeof explicitType === "string" && explicitType) || file.type.split(";")[0]?.trim() || "text/plain",
      cacheControl: typeof cacheControl === "string" && cacheControl ? `max-age=${cacheControl}` : "no-cache",
      userMetadata: typeof metadata === "string" ? parseJson(metadata) : undefined,
    };
  } else {
    upload = {
      bytes: await readCapped(c.req.raw, limit),
      mimetype: contentType || "application/octet-stream",
      cacheControl: c.req.header("cache-control") ?? "no-cache",
      userMetadata: userMetadataHeader(c),
    };
  }
  if (upload.bytes.byteLength > limit) throw errors.entityTooLarge();
  return upload;
}

/** Reads a raw body, giving up as soon as it passes the limit (chunked bodies have no Content-Length to check). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw errors.entityTooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export interface StoreOptions {
  bucket: string;
  key: string;
  upsert: boolean;
  /** Who the object belongs to. */
  owner: Caller;
  /** Decide by RLS as this caller; null for signed-upload tokens, already authorised when signed. */
  actAs: Caller | null;
}

/**
 * Checks limits, writes a new version on disk, then records it as Storage
 * does: the caller's RLS decides on a rolled-back trial row holding only what
 * the request declared (`{ mimetype, contentLength }`, the latter the request's
 * Content-Length, multipart framing included, and absent for a chunked body;
 * no `size`), then the row is written with the server's privileges and the
 * full metadata (INSERT, or INSERT … ON CONFLICT UPDATE to upsert).
 */
export async function storeUpload(
  stack: Stack,
  files: ObjectFiles,
  c: Context<StackEnv>,
  options: StoreOptions,
): Promise<{ Id: string; Key: string }> {
  const bucket = await findBucket(stack.db, options.bucket);
  const upload = await readUpload(c, sizeLimitOf(stack, bucket, options.key));
  if (!isEmptyFolder(options.key)) checkMimeType(bucket.allowed_mime_types, upload.mimetype);
  const declared = { mimetype: upload.mimetype, contentLength: declaredLength(c) };
  // Hosted Storage stores the bytes as given under the declared type; strict mode checks them.
  const bytes = stack.strict ? checkContent(upload.bytes, upload.mimetype) : upload.bytes;
  const metadata = objectMetadata(bytes, upload.mimetype, upload.cacheControl);
  const version = await files.write(options.bucket, options.key, bytes);
  const { owner, ownerId } = ownerOf(options.owner);
  let stored: { id: string; previous: string | null };
  try {
    stored = await transact(stack, c, options.actAs ?? options.owner, async (tx, becomeCaller) => {
      await lockObject(tx, options.bucket, options.key);
      const existing = await existingObject(tx, options.bucket, options.key);
      if (existing && !options.upsert) throw errors.keyExists();
      if (options.actAs) {
        await asCallerRolledBack(tx, becomeCaller, () =>
          insertTrialObject(tx, {
            bucket: options.bucket,
            key: options.key,
            owner,
            ownerId,
            metadata: declared,
            userMetadata: upload.userMetadata,
            upsert: options.upsert,
          }),
        );
      }
      const id = existing?.id ?? randomUUID();
      await insertObject(tx, {
        id,
        bucket: options.bucket,
        key: options.key,
        owner,
        ownerId,
        metadata,
        // Storage records `{}` when the upload carried no user metadata.
        userMetadata: isRecord(upload.userMetadata) ? upload.userMetadata : {},
        version,
        upsert: options.upsert,
      });
      return { id, previous: existing?.version ?? null };
    });
  } catch (error) {
    await files.remove(options.bucket, options.key, version);
    throw error;
  }
  // Only now is the old version unreferenced; removing it earlier could lose the object if the commit failed.
  if (stored.previous !== version) await files.remove(options.bucket, options.key, stored.previous);
  return { Id: stored.id, Key: `${options.bucket}/${options.key}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
