/** `/object` routes acting as the caller: download, info, list, remove, move, copy (uploads: upload-routes.ts). */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { findBucket } from "./bucket-rows.js";
import { asCallerRolledBack, callerOf, lockObject, ownerOf, transact } from "./context.js";
import { userMetadataHeader } from "./declared.js";
import { errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { listLevel, listOptions } from "./list.js";
import { listV2, listV2Options } from "./list-v2.js";
import {
  deleteObjects,
  existingObject,
  findObject,
  insertObject,
  insertTrialObject,
  moveObject,
  type ObjectRow,
} from "./object-rows.js";
import { bucketAndKey, checkBucketName, checkKey, rawTail } from "./paths.js";
import { publicObject, visibleObject } from "./reads.js";
import { jsonBody } from "./request-body.js";
import { sendObject } from "./serve.js";

function infoOf(row: ObjectRow) {
  const metadata = row.metadata ?? {};
  return {
    id: row.id,
    version: row.version,
    name: row.name,
    bucket_id: row.bucket_id,
    size: metadata.size ?? null,
    content_type: metadata.mimetype ?? null,
    cache_control: metadata.cacheControl ?? null,
    etag: metadata.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}

export function objectRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  // Order matters: fixed prefixes (public, info, authenticated, list, move, copy) before `/<bucket>/<key>`.
  app.get("/public/*", async (c) => sendObject(c, files, await publicObject(stack, c, "/object/public/"), stack));
  app.get("/info/public/*", async (c) => c.json(infoOf(await publicObject(stack, c, "/object/info/public/"))));
  app.get("/info/authenticated/*", async (c) =>
    c.json(infoOf(await visibleObject(stack, c, "/object/info/authenticated/"))),
  );
  app.get("/info/*", async (c) => c.json(infoOf(await visibleObject(stack, c, "/object/info/"))));
  app.get("/authenticated/*", async (c) =>
    sendObject(c, files, await visibleObject(stack, c, "/object/authenticated/"), stack),
  );

  app.post("/list/:bucket", async (c) => {
    const caller = await callerOf(stack, c);
    const bucket = checkBucketName(c.req.param("bucket"));
    const options = listOptions(await jsonBody(c.req.raw));
    const rows = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return listLevel(tx, bucket, options);
    });
    return c.json(rows);
  });

  app.post("/list-v2/:bucket", async (c) => {
    const caller = await callerOf(stack, c);
    const bucket = checkBucketName(c.req.param("bucket"));
    const options = listV2Options(await jsonBody(c.req.raw));
    const page = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return listV2(tx, bucket, options);
    });
    return c.json(page);
  });

  /**
   * Storage's move: as the caller, a rolled-back trial reads the source and
   * renames it with the mover as owner, so the SELECT and UPDATE policies decide
   * on the row as it would become; then, with the server's privileges, the file
   * is copied and the row renamed for real (owner too).
   */
  app.post("/move", async (c) => {
    const caller = await callerOf(stack, c);
    const { from, to, sourceKey, destinationKey } = transferOf(await jsonBody(c.req.raw));
    const mover = ownerOf(caller);
    // A property, not a local: TypeScript does not narrow it away after the callback assigns it.
    const created: { version: string | null } = { version: null };
    let replaced: string | null;
    try {
      replaced = await transact(stack, c, caller, async (tx, becomeCaller) => {
        await findBucket(tx, from);
        await findBucket(tx, to);
        // Always in the same order, so two opposite moves cannot deadlock.
        const objects: [string, string][] = [
          [from, sourceKey],
          [to, destinationKey],
        ];
        objects.sort(([a, x], [b, y]) => (`${a}/${x}` < `${b}/${y}` ? -1 : 1));
        for (const [bucket, key] of objects) await lockObject(tx, bucket, key);
        const trialVersion = randomUUID();
        await asCallerRolledBack(tx, becomeCaller, async () => {
          await findObject(tx, from, sourceKey);
          const moved = await moveObject(
            tx,
            { bucket: from, key: sourceKey },
            { bucket: to, key: destinationKey, version: trialVersion },
            mover,
          );
          if (!moved) throw errors.noSuchKey();
        });
        // Onto itself: Storage stops after the check.
        if (from === to && sourceKey === destinationKey) return null;
        const { version } = await findObject(tx, from, sourceKey);
        if (!version) throw errors.noSuchKey();
        created.version = await files.copy({ bucket: from, key: sourceKey, version }, to, destinationKey);
        await moveObject(
          tx,
          { bucket: from, key: sourceKey },
          { bucket: to, key: destinationKey, version: created.version },
          mover,
          new Date().toISOString(),
        );
        return version;
      });
    } catch (error) {
      await files.remove(to, destinationKey, created.version);
      throw error;
    }
    await files.remove(from, sourceKey, replaced);
    return c.json({ message: "Successfully moved" });
  });

  /**
   * Storage's copy: the source is read as the caller; the destination row is
   * the source's metadata (with `copyMetadata: false`, the request's `metadata`
   * `mimetype` and `cacheControl` over it) and user metadata (with
   * `copyMetadata: false`, the `x-metadata` header's instead), owned by the
   * caller. The INSERT (or, with x-upsert, upsert) policies decide on a
   * rolled-back trial of that row; the real row is written with the server's
   * privileges.
   */
  app.post("/copy", async (c) => {
    const caller = await callerOf(stack, c);
    const body = await jsonBody(c.req.raw);
    const { from, to, sourceKey, destinationKey } = transferOf(body);
    const { copyMetadata, fileMetadata } = copyOptionsOf(body);
    const upsert = c.req.header("x-upsert") === "true";
    const { owner, ownerId } = ownerOf(caller);
    const created: { version: string | null } = { version: null };
    let result: { id: string; previous: string | null };
    try {
      result = await transact(stack, c, caller, async (tx, becomeCaller) => {
        await findBucket(tx, from);
        await findBucket(tx, to);
        await lockObject(tx, to, destinationKey);
        const existing = await existingObject(tx, to, destinationKey);
        if (existing && !upsert) throw errors.keyExists();
        const destination = await asCallerRolledBack(tx, becomeCaller, async () => {
          const source = await findObject(tx, from, sourceKey);
          const metadata: Record<string, unknown> = {
            ...(source.metadata ?? {}),
            ...(copyMetadata ? {} : fileMetadata),
          };
          const userMetadata = copyMetadata ? source.user_metadata : userMetadataHeader(c);
          await insertTrialObject(tx, {
            bucket: to,
            key: destinationKey,
            owner,
            ownerId,
            metadata,
            userMetadata,
            upsert,
          });
          return { version: source.version, metadata, userMetadata };
        });
        if (!destination.version) throw errors.noSuchKey();
        created.version = await files.copy(
          { bucket: from, key: sourceKey, version: destination.version },
          to,
          destinationKey,
        );
        const objectId = existing?.id ?? randomUUID();
        await insertObject(tx, {
          id: objectId,
          bucket: to,
          key: destinationKey,
          owner,
          ownerId,
          metadata: { ...destination.metadata, lastModified: new Date().toISOString() },
          userMetadata: destination.userMetadata ?? null,
          version: created.version,
          upsert,
        });
        return { id: objectId, previous: existing?.version ?? null };
      });
    } catch (error) {
      await files.remove(to, destinationKey, created.version);
      throw error;
    }
    await files.remove(to, destinationKey, result.previous);
    return c.json({ Id: result.id, Key: `${to}/${destinationKey}` });
  });

  app.get("/*", async (c) => sendObject(c, files, await visibleObject(stack, c, "/object/"), stack));

  app.delete("/:bucket", async (c) => {
    const caller = await callerOf(stack, c);
    const bucket = checkBucketName(c.req.param("bucket"));
    const body = await jsonBody(c.req.raw);
    if (!Array.isArray(body.prefixes) || body.prefixes.length === 0 || body.prefixes.length > 1000) {
      throw errors.invalidRequest("body/prefixes must be an array of 1 to 1000 paths");
    }
    const names = body.prefixes
      .map((entry: unknown) => (typeof entry === "string" ? entry : (entry as { path?: unknown } | null)?.path))
      .filter((name): name is string => typeof name === "string");
    const removed = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return deleteObjects(tx, bucket, names);
    });
    for (const row of removed) await files.remove(bucket, row.name, row.version);
    return c.json(removed);
  });

  app.delete("/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    const [removed] = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return deleteObjects(tx, bucket, [key]);
    });
    if (!removed) throw errors.noSuchKey();
    await files.remove(bucket, removed.name, removed.version);
    return c.json({ message: "Successfully deleted" });
  });

  return app;
}

/** The source and destination of a move or copy request, checked. */
function transferOf(body: Awaited<ReturnType<typeof jsonBody>>) {
  const from = checkBucketName(body.bucketId);
  return {
    from,
    to: checkBucketName(body.destinationBucket ?? from),
    sourceKey: checkKey(body.sourceKey),
    destinationKey: checkKey(body.destinationKey),
  };
}

/** A copy's `copyMetadata` (true unless false) and the `metadata` it may set instead: `mimetype`, `cacheControl`. */
function copyOptionsOf(body: Awaited<ReturnType<typeof jsonBody>>) {
  if (body.copyMetadata !== undefined && typeof body.copyMetadata !== "boolean") {
    throw errors.invalidRequest("body/copyMetadata must be boolean");
  }
  const given = body.metadata ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw errors.invalidRequest("body/metadata must be object");
  }
  const fileMetadata: Record<string, string> = {};
  for (const field of ["mimetype", "cacheControl"] as const) {
    const value = (given as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== "string") throw errors.invalidRequest(`body/metadata/${field} must be string`);
    fileMetadata[field] = value;
  }
  return { copyMetadata: body.copyMetadata !== false, fileMetadata };
}
