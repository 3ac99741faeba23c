/** Reading an upload (raw body or multipart with the file under an empty field name) and storing it. */
import { createHash, randomUUID } from "node:crypto";
import type { Context } from "hono";
import { readCappedBody } from "../gateway/capped-body.js";
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

const isMultipart = (c: Context<StackEnv>) =>
  (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

async function readUpload(c: Context<StackEnv>, limit: number): Promise<Upload> {
  // Multipart framing adds a little; the file itself is checked exactly below.
  const framedLimit = limit + 64 * 1024;
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > framedLimit) throw errors.entityTooLarge();
  const contentType = c.req.header("content-type") ?? "";
  let upload: Upload;
  if (isMultipart(c)) {
    // Read no further than the limit (a chunked body declares no length), then parse.
    const body = await readCappedBody(c.req.raw, framedLimit);
    if (body === null) throw errors.entityTooLarge();
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": contentType } }).formData();
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
    const bytes = await readCappedBody(c.req.raw, limit);
    if (bytes === null) throw errors.entityTooLarge();
    upload = {
      bytes,
      mimetype: contentType || "application/octet-stream",
      cacheControl: c.req.header("cache-control") ?? "no-cache",
      userMetadata: userMetadataHeader(c),
    };
  }
  if (upload.bytes.byteLength > limit) throw errors.entityTooLarge();
  return upload;
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
 * Checks limits, then asks the caller's RLS as Storage does (canUpload): on a
 * rolled-back trial row holding only what the request declared (`{ mimetype,
 * contentLength }`, the latter the request's Content-Length, multipart framing
 * included, and absent for a chunked body; no `size`). A raw body is checked
 * before any of it is read, a multipart one once its fields are read; either
 * way nothing reaches the disk unless RLS allows it. Then a new version is
 * written on disk and the row with the server's privileges and the full
 * metadata (INSERT, or INSERT … ON CONFLICT UPDATE to upsert).
 */
export async function storeUpload(
  stack: Stack,
  files: ObjectFiles,
  c: Context<StackEnv>,
  options: StoreOptions,
): Promise<{ Id: string; Key: string }> {
  const bucket = await findBucket(stack.db, options.bucket);
  const { owner, ownerId } = ownerOf(options.owner);
  const mayUpload = async (mimetype: string, userMetadata: unknown) => {
    const actAs = options.actAs;
    if (!actAs) return;
    const metadata = { mimetype, contentLength: declaredLength(c) };
    await transact(stack, c, actAs, async (tx, becomeCaller) => {
      if (!options.upsert && (await existingObject(tx, options.bucket, options.key))) throw errors.keyExists();
      await asCallerRolledBack(tx, becomeCaller, () =>
        insertTrialObject(tx, {
          bucket: options.bucket,
          key: options.key,
          owner,
          ownerId,
          metadata,
          userMetadata,
          upsert: options.upsert,
        }),
      );
    });
  };
  const limit = sizeLimitOf(stack, bucket, options.key);
  const multipart = isMultipart(c);
  if (!multipart) {
    // As Storage takes a raw upload: its declared type and length, then RLS, then the body.
    const mimetype = c.req.header("content-type") || "application/octet-stream";
    if (!isEmptyFolder(options.key)) checkMimeType(bucket.allowed_mime_types, mimetype);
    if (Number(c.req.header("content-length") ?? "0") > limit) throw errors.entityTooLarge();
    await mayUpload(mimetype, userMetadataHeader(c));
  }
  const upload = await readUpload(c, limit);
  if (multipart) {
    if (!isEmptyFolder(options.key)) checkMimeType(bucket.allowed_mime_types, upload.mimetype);
    await mayUpload(upload.mimetype, upload.userMetadata);
  }
  // Hosted Storage stores the bytes as given under the declared type; strict mode checks them.
  const bytes = stack.strict ? await checkContent(upload.bytes, upload.mimetype) : upload.bytes;
  const metadata = objectMetadata(bytes, upload.mimetype, upload.cacheControl);
  const version = await files.write(options.bucket, options.key, bytes);
  let stored: { id: string; previous: string | null };
  try {
    stored = await transact(stack, c, options.actAs ?? options.owner, async (tx) => {
      await lockObject(tx, options.bucket, options.key);
      const existing = await existingObject(tx, options.bucket, options.key);
      if (existing && !options.upsert) throw errors.keyExists();
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
