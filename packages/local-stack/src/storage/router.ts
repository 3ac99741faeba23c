import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { bucketRoutes, seedConfigBuckets } from "./buckets.js";
import { errorResponse, routeNotFound } from "./errors.js";
import { ObjectFiles } from "./files.js";
import { objectRoutes } from "./objects.js";
import { signedRoutes } from "./signed.js";

/** Supabase Storage-compatible `/storage/v1`: metadata in storage.buckets/objects under RLS, bytes on disk. */
export function storageRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const files = new ObjectFiles(stack.storageDir);
  // Seeded as soon as the router exists (the database is ready by then); requests wait for it, and retry if it failed.
  const seed = () =>
    seedConfigBuckets(stack).then(
      () => true,
      (error: unknown) => {
        stack.log(`storage: could not create the config.toml buckets: ${String(error)}`);
        return false;
      },
    );
  let seeded = seed();
  app.use("*", async (_c, next) => {
    if (!(await seeded)) seeded = seed();
    await next();
  });
  app.onError((error, c) => errorResponse(c, error));

  app.route("/bucket", bucketRoutes(stack, files));
  // Order matters: fixed prefixes (public, sign, info, list, move, copy) before `/object/<bucket>/<key>`.
  signedRoutes(app, stack, files);
  objectRoutes(app, stack, files);
  app.all("*", routeNotFound);
  return app;
}
