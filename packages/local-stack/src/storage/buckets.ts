/** `/bucket` routes and the bucket lookups object routes make; bucket rows are guarded by RLS like objects. */
import { Hono } from "hono";
import type { Queryable } from "../database/types.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { allowedMimeTypes, fileSizeLimit } from "./bucket-settings.js";
import { callerOf, ownerOf, transact } from "./context.js";
import { errorResponse, errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import { checkBucketName } from "./paths.js";

export interface Bucket {
  id: string;
  name: string;
  /** "" without an owner: Storage's response schema types it as a string, which turns null into "". */
  owner: string;
  owner_id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  type: string;
  created_at: string;
  updated_at: string;
}

const bucketColumns = `id, name, coalesce(owner::text, '') as owner, coalesce(owner_id, '') as owner_id,
  coalesce(public, false) as public,
  file_size_limit::float8 as file_size_limit, allowed_mime_types, type, created_at, updated_at`;

/** The bucket as the server sees it, whatever the caller may see (Storage's `asSuperUser().findBucket`). */
export async function findBucket(tx: Queryable, id: string): Promise<Bucket> {
  const [bucket] = await tx.query<Bucket>(`select ${bucketColumns} from storage.buckets where id = $1`, [id]);
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

/** Creates the buckets config.toml declares, as `supabase start` seeds them; existing ones are left alone. */
export async function seedConfigBuckets(stack: Stack): Promise<void> {
  for (const [name, bucket] of Object.entries(stack.config.storage.buckets)) {
    await stack.db.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
       values ($1, $1, $2, $3, $4) on conflict (id) do nothing`,
      [name, bucket.public, bucket.fileSizeLimit, bucket.allowedMimeTypes],
    );
  }
}

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
  type?: unknown;
}

async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text) return {};
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    throw errors.invalidRequest("Body is not valid JSON");
  }
}

export { jsonBody };

export function bucketRoutes(stack: Stack, files: ObjectFiles): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.onError((error, c) => errorResponse(c, error));

  app.get("/", async (c) => {
    const caller = await callerOf(stack, c);
    const limit = Number(c.req.query("limit") ?? "") || null;
    const offset = Number(c.req.query("offset") ?? "") || 0;
    const search = c.req.query("search") ?? "";
    const column = ["id", "name", "created_at", "updated_at"].includes(c.req.query("sortColumn") ?? "")
      ? (c.req.query("sortColumn") as string)
      : "name";
    const order = c.req.query("sortOrder") === "desc" ? "desc" : "asc";
    const rows = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await becomeCaller();
      return tx.query<Bucket>(
        `select ${bucketColumns} from storage.buckets
         where $1 = '' or name ilike '%' || $1 || '%'
         order by ${column} ${order} limit $2 offset $3`,
        [search, limit, offset],
      );
    });
    return c.json(rows);
  });

  app.get("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const bucket = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await becomeCaller();
      const [row] = await tx.query<Bucket>(`select ${bucketColumns} from storage.buckets where id = $1`, [id]);
      return row;
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
    const limit = fileSizeLimit(body.file_size_limit, stack.config.storage.fileSizeLimit) ?? null;
    const mimeTypes = allowedMimeTypes(body.allowed_mime_types) ?? null;
    await transact(stack, c, caller, async (tx, becomeCaller) => {
      const [existing] = await tx.query("select 1 from storage.buckets where id = $1 or name = $2", [id, name]);
      if (existing) throw errors.bucketExists();
      await becomeCaller();
      await tx.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          id,
          name,
          owner,
          ownerId,
          body.public === true,
          limit,
          mimeTypes,
          typeof body.type === "string" ? body.type : "STANDARD",
        ],
      );
    });
    return c.json({ name: id });
  });

  app.put("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const body: BucketBody = await jsonBody(c.req.raw);
    const { public: isPublic, file_size_limit: size, allowed_mime_types: types } = body;
    if ([isPublic, size, types].every((value) => value === undefined)) throw errors.noContentProvided();
    const limit = fileSizeLimit(size, stack.config.storage.fileSizeLimit);
    const mimeTypes = allowedMimeTypes(types);
    const updated = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      await becomeCaller();
      return tx.query(
        `update storage.buckets set
           public = coalesce($2, public),
           file_size_limit = case when $3 then $4 else file_size_limit end,
           allowed_mime_types = case when $5 then $6 else allowed_mime_types end,
           updated_at = now()
         where id = $1 returning id`,
        [
          id,
          typeof isPublic === "boolean" ? isPublic : null,
          limit !== undefined,
          limit ?? null,
          mimeTypes !== undefined,
          mimeTypes ?? null,
        ],
      );
    });
    if (updated.length === 0) throw errors.noSuchBucket();
    return c.json({ message: "Successfully updated" });
  });

  app.post("/:id/empty", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const removed = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      await becomeCaller();
      return tx.query<{ name: string; version: string | null }>(
        "delete from storage.objects where bucket_id = $1 returning name, version",
        [id],
      );
    });
    for (const row of removed) await files.remove(id, row.name, row.version);
    return c.json({ message: "Successfully emptied" });
  });

  app.delete("/:id", async (c) => {
    const caller = await callerOf(stack, c);
    const id = checkBucketName(c.req.param("id"));
    const deleted = await transact(stack, c, caller, async (tx, becomeCaller) => {
      await findBucket(tx, id);
      const [objects] = await tx.query<{ count: number }>(
        "select count(*)::int as count from storage.objects where bucket_id = $1",
        [id],
      );
      if ((objects?.count ?? 0) > 0) throw errors.notEmpty();
      await becomeCaller();
      return tx.query("delete from storage.buckets where id = $1 returning id", [id]);
    });
    if (deleted.length === 0) throw errors.noSuchBucket();
    await files.removeBucket(id);
    return c.json({ message: "Successfully deleted" });
  });

  return app;
}
