/**
 * Signed URLs: JWTs over the stack's secret naming one `<bucket>/<key>`
 * (`{url, iat, exp}` for downloads, `{owner, url, upsert, iat, exp}` for uploads).
 */
import type { Context, Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { findBucket, jsonBody } from "./buckets.js";
import { anonymous, callerOf, ownerOf, transact } from "./context.js";
import { errors, StorageError } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { bucketAndKey, checkBucketName, rawTail } from "./paths.js";
import { findObject, type ObjectRow, objectColumns, sendObject } from "./serve.js";
import { storeUpload } from "./uploads.js";

const uploadTokenLifetime = 7200;
const missing = "Either the object does not exist or you do not have access to it";

function expiresIn(value: unknown): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1) throw errors.invalidRequest("expiresIn must be a positive number");
  return Math.floor(seconds);
}

async function tokenClaims(stack: Stack, c: Context<StackEnv>, url: string): Promise<Record<string, unknown>> {
  const token = c.req.query("token");
  if (!token) throw errors.invalidRequest("querystring must have required property 'token'");
  let claims: Record<string, unknown>;
  try {
    claims = (await stack.keys.verify(token)) as Record<string, unknown>;
  } catch (error) {
    const expired = error instanceof Error && error.message === "JWT expired";
    throw new StorageError(400, "InvalidJWT", "InvalidJWT", expired ? "jwt expired" : "invalid signature");
  }
  if (claims.url !== url) throw errors.invalidSignature();
  return claims;
}

export function signedRoutes(app: Hono<StackEnv>, stack: Stack, files: ObjectFiles): void {
  const sign = (claims: Record<string, unknown>, lifetime: number) => {
    const iat = Math.floor(Date.now() / 1000);
    return stack.keys.sign({ ...claims, iat, exp: iat + lifetime });
  };

  app.get("/object/sign/*", async (c) => {
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/sign/"));
    await tokenClaims(stack, c, `${bucket}/${key}`);
    const [row] = await stack.db.query<ObjectRow>(
      `select ${objectColumns} from storage.objects where bucket_id = $1 and name = $2`,
      [bucket, key],
    );
    if (!row) throw errors.noSuchKey();
    return sendObject(c, files, row);
  });

  app.post("/object/sign/:bucket", async (c) => {
    const caller = await callerOf(stack, c);
    const bucket = checkBucketName(c.req.param("bucket"));
    const body = await jsonBody(c.req.raw);
    const lifetime = expiresIn(body.expiresIn);
    if (!Array.isArray(body.paths) || body.paths.some((path: unknown) => typeof path !== "string")) {
      throw errors.invalidRequest("body/paths must be an array of strings");
    }
    const paths = body.paths as string[];
    const visible = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      const rows = await tx.query<{ name: string }>(
        "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
        [bucket, paths],
      );
      return new Set(rows.map((row) => row.name));
    });
    const results = await Promise.all(
      paths.map(async (path) => {
        if (!visible.has(path)) return { path, signedURL: null, error: missing };
        const token = await sign({ url: `${bucket}/${path}` }, lifetime);
        return { path, signedURL: `/object/sign/${bucket}/${path}?token=${token}`, error: null };
      }),
    );
    return c.json(results);
  });

  app.post("/object/sign/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/sign/"));
    const lifetime = expiresIn((await jsonBody(c.req.raw)).expiresIn);
    await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      await becomeCaller();
      await findObject(tx, bucket, key);
    });
    const token = await sign({ url: `${bucket}/${key}` }, lifetime);
    return c.json({ signedURL: `/object/sign/${bucket}/${key}?token=${token}` });
  });

  // Like Storage, signing an upload URL tests the INSERT (and for upsert the UPDATE) policy, then rolls back.
  app.post("/object/upload/sign/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/upload/sign/"));
    const upsert = c.req.header("x-upsert") === "true";
    const probe = new StorageError(200, "Probe", "probe", "rolled back on purpose");
    try {
      await transact(stack, c, caller, async (tx, becomeCaller) => {
        await findBucket(tx, bucket);
        const [existing] = await tx.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [
          bucket,
          key,
        ]);
        if (existing && !upsert) throw errors.keyExists();
        await becomeCaller();
        const { owner, ownerId } = ownerOf(caller);
        await tx.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3, $4, '{}')
           ${upsert ? "on conflict (bucket_id, name) do update set owner = excluded.owner, updated_at = now()" : ""}`,
          [bucket, key, owner, ownerId],
        );
        throw probe;
      });
    } catch (error) {
      if (error !== probe) throw error;
    }
    const token = await sign(
      { owner: typeof caller.claims.sub === "string" ? caller.claims.sub : undefined, url: `${bucket}/${key}`, upsert },
      uploadTokenLifetime,
    );
    return c.json({ url: `/object/upload/sign/${bucket}/${key}?token=${token}`, token });
  });

  app.put("/object/upload/sign/*", async (c) => {
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/upload/sign/"));
    const claims = await tokenClaims(stack, c, `${bucket}/${key}`);
    const owner =
      typeof claims.owner === "string" ? { role: "authenticated", claims: { sub: claims.owner } } : anonymous;
    const result = await storeUpload(stack, files, c, {
      bucket,
      key,
      upsert: claims.upsert === true,
      owner,
      actAs: null,
    });
    return c.json(result);
  });
}
