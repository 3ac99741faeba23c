/** The two ways a read finds its object: as the caller under RLS, or from a public bucket without a check. */
import type { Context } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { findBucket } from "./bucket-rows.js";
import { callerOf, transact } from "./context.js";
import { errors } from "./errors.js";
import { findObject, type ObjectRow } from "./object-rows.js";
import { bucketAndKey, rawTail } from "./paths.js";

/**
 * The object after `prefix` in the path as the caller may see it; NoSuchBucket
 * first when the bucket is missing altogether. Downloads allow an invalid JWT
 * and then read as anon, as Storage's do.
 */
export async function visibleObject(stack: Stack, c: Context<StackEnv>, prefix: string): Promise<ObjectRow> {
  const caller = await callerOf(stack, c, { allowInvalidJwt: true });
  const { bucket, key } = bucketAndKey(rawTail(c.req.url, prefix));
  return transact(stack, c, caller, async (tx, becomeCaller) => {
    await findBucket(tx, bucket);
    await becomeCaller();
    return findObject(tx, bucket, key);
  });
}

/** Public buckets serve everything to everyone, without token or policy. */
export async function publicObject(stack: Stack, c: Context<StackEnv>, prefix: string): Promise<ObjectRow> {
  const { bucket, key } = bucketAndKey(rawTail(c.req.url, prefix));
  const found = await findBucket(stack.db, bucket);
  if (!found.public) throw errors.noSuchBucket();
  return findObject(stack.db, bucket, key);
}
