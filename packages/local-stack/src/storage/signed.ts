/**
 * Signed URLs: JWTs over the stack's secret naming one `<bucket>/<key>`
 * (`{url, iat, exp}` for downloads, `{owner, url, upsert, iat, exp}` for uploads).
 */
import { type Context, Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { JwtError } from "../keys/keys.js";
import type { Stack } from "../stack.js";
import { findBucket } from "./bucket-rows.js";
import { anonymous, asCallerRolledBack, callerOf, jsonwebtokenMessage, ownerOf, transact } from "./context.js";
import { declaredLength, userMetadataHeader } from "./declared.js";
import { errors, StorageError } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { existingObject, findObject, insertTrialObject, visibleNames } from "./object-rows.js";
import { bucketAndKey, checkBucketName, rawTail } from "./paths.js";
import { jsonBody } from "./request-body.js";
import { sendObject } from "./serve.js";
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
    if (!(error instanceof JwtError)) throw error;
    throw new StorageError(400, "InvalidJWT", "InvalidJWT", jsonwebtokenMessage(error));
  }
  if (claims.url !== url) throw errors.invalidSignature();
  return claims;
}

/** Routes under `/object`: signing, and serving or uploading with a signature. */
export function signedRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const sign = (claims: Record<string, unknown>, lifetime: number) => {
    const iat = Math.floor(Date.now() / 1000);
    return stack.keys.sign({ ...claims, iat, exp: iat + lifetime });
  };

  app.get("/sign/*", async (c) => {
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/sign/"));
    await tokenClaims(stack, c, `${bucket}/${key}`);
    return sendObject(c, files, await findObject(stack.db, bucket, key), stack);
  });

  app.post("/sign/:bucket", async (c) => {
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
      return visibleNames(tx, bucket, paths);
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

  app.post("/sign/*", async (c) => {
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
  // The trial row's metadata is what this request declares: its own Content-Type and Content-Length.
  app.post("/upload/sign/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/upload/sign/"));
    const upsert = c.req.header("x-upsert") === "true";
    const metadata = { mimetype: c.req.header("content-type"), contentLength: declaredLength(c) };
    await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, bucket);
      if ((await existingObject(tx, bucket, key)) && !upsert) throw errors.keyExists();
      await asCallerRolledBack(tx, becomeCaller, () =>
        insertTrialObject(tx, {
          bucket,
          key,
          ...ownerOf(caller),
          metadata,
          userMetadata: userMetadataHeader(c),
          upsert,
        }),
      );
    });
    const token = await sign(
      { owner: typeof caller.claims.sub === "string" ? caller.claims.sub : undefined, url: `${bucket}/${key}`, upsert },
      uploadTokenLifetime,
    );
    return c.json({ url: `/object/upload/sign/${bucket}/${key}?token=${token}`, token });
  });

  app.put("/upload/sign/*", async (c) => {
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

  return app;
}
