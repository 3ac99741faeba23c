/** Uploads to `/object/<bucket>/<key>`: POST creates (or upserts with x-upsert), PUT is `update()`. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { callerOf } from "./context.js";
import type { ObjectFiles } from "./files.js";
import { bucketAndKey, rawTail } from "./paths.js";
import { storeUpload } from "./uploads.js";

export function uploadRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();

  app.post("/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    const upsert = c.req.header("x-upsert") === "true";
    return c.json(await storeUpload(stack, files, c, { bucket, key, upsert, owner: caller, actAs: caller }));
  });

  // update() sends PUT without x-upsert; Storage treats it as an upsert of the same path.
  app.put("/*", async (c) => {
    const caller = await callerOf(stack, c);
    const { bucket, key } = bucketAndKey(rawTail(c.req.url, "/object/"));
    return c.json(await storeUpload(stack, files, c, { bucket, key, upsert: true, owner: caller, actAs: caller }));
  });

  return app;
}
