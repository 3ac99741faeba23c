/** `/object` routes acting as the caller: upload, update, download, info, list, remove, move, copy. */
import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import type { Queryable } from "../database/types.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { findBucket, jsonBody } from "./buckets.js";
import { callerOf, lockObject, ownerOf, transact } from "./context.js";
import { errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { listLevel, listOptions } from "./list.js";
import { listV2, listV2Options } from "./list-v2.js";
import { bucketAndKey, checkBucketName, checkKey, rawTail } from "./paths.js";
import { findObject, type ObjectRow, objectColumns, sendObject } from "./serve.js";
import { insertObject, storeUpload } from "./uploads.js";

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

export function objectRoutes(app: Hono<StackEnv>, stack: Stack, files: ObjectFiles): void {
  /** The object as the caller may see it; NoSuchBucket first when the bucket is missing altogether. */
  const visibleObject = async (c: Context<StackEnv>, prefix: string) => {
    const caller = await callerOf(stack, c, { allowInvalidJwt: true });
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, prefix));
    return transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return findObject(tx, bucket, key);
    });
  };

  /** Public buckets serve everything to everyone, without token or policy. */
  const publicObject = async (c: Context<StackEnv>, prefix: string) => {
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, prefix));
    const found = await findBucket(stack.db, bucket);
    if (!found.public) throw errors.noSuchBucket();
    const [row] = await stack.db.query<ObjectRow>(
      `select ${objectColumns} from storage.objects where bucket_id = $1 and name = $2`,
      [bucket, key],
    );
    if (!row) throw errors.noSuchKey();
    return row;
  };

  app.get("/object/public/*", async (c) => sendObject(c, files, await publicObject(c, "/object/public/")));
  // Image transformation is not implemented: render URLs serve the original.
  app.get("/render/image/public/*", async (c) => sendObject(c, files, await publicObject(c, "/render/image/public/")));
  app.get("/render/image/authenticated/*", async (c) =>
    sendObject(c, files, await visibleObject(c, "/render/image/authenticated/")),
  );
  app.get("/object/info/public/*", async (c) => c.json(infoOf(await publicObject(c, "/object/info/public/"))));
  app.get("/object/info/authenticated/*", async (c) =>
    c.json(infoOf(await visibleObject(c, "/object/info/authenticated/"))),
  );
  app.get("/object/info/*", async (c) => c.json(infoOf(await visibleObject(c, "/object/info/"))));
  app.get("/object/authenticated/*", async (c) =>
    sendObject(c, files, await visibleObject(c, "/object/authenticated/")),
  );

  app.post("/object/list/:bucket", async (c) => {
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

  app.post("/object/list-v2/:bucket", async (c) => {
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
   * Reads the source as the caller (RLS decides whether they may) and copies its
   * file to the destination, recording the new version in `created` so a failed
   * transaction can remove it.
   */
  async function copySource(
    tx: Queryable,
    from: string,
    sourceKey: string,
    to: string,
    destinationKey: string,
    created: { version: string | null },
  ) {
    const source = await findObject(tx, from, sourceKey);
    const { version } = source;
    if (!version) throw errors.noSuchKey();
    const copied = await files.copy({ bucket: from, key: sourceKey, version }, to, destinationKey);
    created.version = copied;
    return { source: { ...source, version }, copied };
  }

  app.post("/object/move", async (c) => {
    const caller = await callerOf(stack, c);
    const { from, to, sourceKey, destinationKey } = transferOf(await jsonBody(c.req.raw));
    // A property, not a local: TypeScript does not narrow it away after the callback assigns it.
    const created: { version: string | null } = { version: null };
    let replaced: string;
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
        await becomeCaller();
        const { source, copied } = await copySource(tx, from, sourceKey, to, destinationKey, created);
        const updated = await tx.query(
          `update storage.objects set bucket_id = $3, name = $4, version = $5, updated_at = now()
           where bucket_id = $1 and name = $2 returning id`,
          [from, sourceKey, to, destinationKey, copied],
        );
        if (updated.length === 0) throw errors.noSuchKey();
        return source.version;
      });
    } catch (error) {
      await files.remove(to, destinationKey, created.version);
      throw error;
    }
    await files.remove(from, sourceKey, replaced);
    return c.json({ message: "Successfully moved" });
  });

  app.post("/object/copy", async (c) => {
    const caller = await callerOf(stack, c);
    const body = await jsonBody(c.req.raw);
    const { from, to, sourceKey, destinationKey } = transferOf(body);
    const upsert = c.req.header("x-upsert") === "true";
    const { owner, ownerId } = ownerOf(caller);
    const created: { version: string | null } = { version: null };
    let result: { id: string; previous: string | null };
    try {
      result = await transact(stack, c, caller, async (tx, becomeCaller) => {
        await findBucket(tx, from);
        await findBucket(tx, to);
        await lockObject(tx, to, destinationKey);
        const [existing] = await tx.query<{ id: string; version: string | null }>(
          "select id, version from storage.objects where bucket_id = $1 and name = $2",
          [to, destinationKey],
        );
        if (existing && !upsert) throw errors.keyExists();
        await becomeCaller();
        const { source, copied } = await copySource(tx, from, sourceKey, to, destinationKey, created);
        const objectId = existing?.id ?? randomUUID();
        await insertObject(tx, {
          id: objectId,
          bucket: to,
          key: destinationKey,
          owner,
          ownerId,
          metadata: { ...(source.metadata ?? {}), lastModified: new Date().toISOString() },
          userMetadata: body.copyMetadata === false ? (body.metadata ?? null) : source.user_metadata,
          version: copied,
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

  app.get("/object/*", async (c) => sendObject(c, files, await visibleObject(c, "/object/")));

  app.post("/object/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    const upsert = c.req.header("x-upsert") === "true";
    return c.json(await storeUpload(stack, files, c, { bucket, key, upsert, owner: caller, actAs: caller }));
  });

  // update() sends PUT without x-upsert; Storage treats it as an upsert of the same path.
  app.put("/object/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    return c.json(await storeUpload(stack, files, c, { bucket, key, upsert: true, owner: caller, actAs: caller }));
  });

  app.delete("/object/:bucket", async (c) => {
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
      return tx.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${objectColumns}`,
        [bucket, names],
      );
    });
    for (const row of removed) await files.remove(bucket, row.name, row.version);
    return c.json(removed);
  });

  app.delete("/object/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    const [removed] = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      return tx.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = $2 returning ${objectColumns}`,
        [bucket, key],
      );
    });
    if (!removed) throw errors.noSuchKey();
    await files.remove(bucket, removed.name, removed.version);
    return c.json({ message: "Successfully deleted" });
  });
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
