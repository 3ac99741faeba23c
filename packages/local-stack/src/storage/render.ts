/** `/render/image` routes. Image transformation is not implemented: they serve the original. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import type { ObjectFiles } from "./files.js";
import { publicObject, visibleObject } from "./reads.js";
import { sendObject } from "./serve.js";

export function renderRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.get("/public/*", async (c) => sendObject(c, files, await publicObject(stack, c, "/render/image/public/"), stack));
  app.get("/authenticated/*", async (c) =>
    sendObject(c, files, await visibleObject(stack, c, "/render/image/authenticated/"), stack),
  );
  return app;
}
