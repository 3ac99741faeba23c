/** `/bucket` routes; bucket rows are guarded by RLS like objects. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import {
  bucketDetails,
  bucketTaken,
  deleteBucket,
  findBucket,
  insertBucket,
  listBuckets,
  updateBucket,
} from "./bucket-rows.js";
import { allowedMimeTypes, fileSizeLimit } from "./bucket-settings.js";
import { callerOf, ownerOf, transact } from "./context.js";
import { errorResponse, errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { countBucketObjects, deleteBucketObjects } from "./object-rows.js";
import { checkBucketName } from "./paths.js";
import { jsonBody } from "./request-body.js";

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
  type?: unknown;
}

const sortColumns = ["id", "name", "created_at", "updated_at"] as const;

export function bucketRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.onError((error, c) => errorResponse(c, error));
  const globalLimit = stack.config.storage.fileSizeLimit;

  app.get("/", async (c) => {
    const caller = await callerOf(stack, c);
    const sortColumn = sortColumns.find((column) => column === c.req.query("sortColumn"));
    const listing = {
      limit: Number(c.req.query("limit") ?? "") || null,
      offset: Number(c.req.query("offset") ?? "") || 0,
      search: c.req.query("search") ?? "",
      column: sortColumn ?? "name",
      order: c.req.query("sortOrder") === "desc" ? ("desc" as const) : ("asc" as const),
    };
    const rows = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await becomeCaller();
      return listBuckets(tx, listing);
    });
    return c.json(rows);
  });

  app.get("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const bucket = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await becomeCaller();
      return bucketDetails(tx, id);
    });
    if (!bucket) throw errors.noSuchBucket();
    return c.json(bucket);
  });

  app.post("/", async (c) => {
    const caller = await callerOf(stack, c);
    const body: BucketBody = await jsonBody(c.req.raw);
    const name = checkBucketName(body.name ?? body.id);
    const id = checkBucketName(body.id ?? name);
    const { owner, ownerId } = ownerOf(caller);
    const limit = fileSizeLimit(body.file_size_limit, globalLimit) ?? null;
    const mimeTypes = allowedMimeTypes(body.allowed_mime_types) ?? null;
    await transact(stack, c, caller, async (tx, becomeCaller) => {
      if (await bucketTaken(tx, id, name)) throw errors.bucketExists();
      await becomeCaller();
      await insertBucket(tx, {
        id,
        name,
        owner,
        ownerId,
        public: body.public === true,
        file_size_limit: limit,
        allowed_mime_types: mimeTypes,
        type: typeof body.type === "string" ? body.type : "STANDARD",
      });
    });
    return c.json({ name: id });
  });

  app.put("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const body: BucketBody = await jsonBody(c.req.raw);
    const { public: isPublic, file_size_limit: size, allowed_mime_types: types } = body;
    if ([isPublic, size, types].every((value) => value === undefined)) throw errors.noContentProvided();
    const changes = {
      public: typeof isPublic === "boolean" ? isPublic : undefined,
      fileSizeLimit: fileSizeLimit(size, globalLimit),
      allowedMimeTypes: allowedMimeTypes(types),
    };
    const updated = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      await becomeCaller();
      return updateBucket(tx, id, changes);
    });
    if (!updated) throw errors.noSuchBucket();
    return c.json({ message: "Successfully updated" });
  });

  app.post("/:id/empty", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const removed = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      await becomeCaller();
      return deleteBucketObjects(tx, id);
    });
    for (const row of removed) await files.remove(id, row.name, row.version);
    // Storage queues the deletion and says so; here it is done by the time this answers.
    return c.json({ message: "Empty bucket has been queued. Completion may take up to an hour." });
  });

  app.delete("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const deleted = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      if ((await countBucketObjects(tx, id)) > 0) throw errors.notEmpty();
      await becomeCaller();
      return deleteBucket(tx, id);
    });
    if (!deleted) throw errors.noSuchBucket();
    await files.removeBucket(id);
    return c.json({ message: "Successfully deleted" });
  });

  return app;
}
