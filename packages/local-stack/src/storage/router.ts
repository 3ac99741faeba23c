import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { seedConfigBuckets } from "./bucket-rows.js";
import { bucketRoutes } from "./buckets.js";
import { errorResponse, routeNotFound } from "./errors.js";
import { ObjectFiles } from "./files.js";
import { objectRoutes } from "./objects.js";
import { renderRoutes } from "./render.js";
import { signedRoutes } from "./signed.js";
import { uploadRoutes } from "./upload-routes.js";

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
  app.route("/render/image", renderRoutes(stack, files));
  // Order matters: signing and the fixed object routes before uploads to `/object/<bucket>/<key>`.
  app.route("/object", signedRoutes(stack, files));
  app.route("/object", objectRoutes(stack, files));
  app.route("/object", uploadRoutes(stack, files));
  app.all("*", routeNotFound);
  return app;
}
