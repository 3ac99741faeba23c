/** storage.buckets: every query the Storage API makes on it. */
import type { Queryable } from "../database/types.js";
import type { Stack } from "../stack.js";
import { errors } from "./errors.js";

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

/**
 * One bucket as Storage's `GET /bucket/{id}` answers it: the columns it selects there,
 * without `owner_id` and `type` (which only its listing has).
 */
export async function bucketDetails(tx: Queryable, id: string): Promise<Omit<Bucket, "owner_id" | "type"> | undefined> {
  const bucket = await bucketRow(tx, id);
  if (!bucket) return undefined;
  const { owner_id: _ownerId, type: _type, ...details } = bucket;
  return details;
}

/** The bucket as `tx` may see it, or undefined (RLS hides it from roles without a policy). */
export async function bucketRow(tx: Queryable, id: string): Promise<Bucket | undefined> {
  const [bucket] = await tx.query<Bucket>(`select ${bucketColumns} from storage.buckets where id = $1`, [id]);
  return bucket;
}

/** The bucket as the server sees it, whatever the caller may see (Storage's `asSuperUser().findBucket`). */
export async function findBucket(tx: Queryable, id: string): Promise<Bucket> {
  const bucket = await bucketRow(tx, id);
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

export interface BucketListing {
  search: string;
  column: "id" | "name" | "created_at" | "updated_at";
  order: "asc" | "desc";
  limit: number | null;
  offset: number;
}

export function listBuckets(tx: Queryable, listing: BucketListing): Promise<Bucket[]> {
  return tx.query<Bucket>(
    `select ${bucketColumns} from storage.buckets
     where $1 = '' or name ilike '%' || $1 || '%'
     order by ${listing.column} ${listing.order} limit $2 offset $3`,
    [listing.search, listing.limit, listing.offset],
  );
}

export async function bucketTaken(tx: Queryable, id: string, name: string): Promise<boolean> {
  const [existing] = await tx.query("select 1 from storage.buckets where id = $1 or name = $2", [id, name]);
  return existing !== undefined;
}

export async function insertBucket(
  tx: Queryable,
  row: Pick<Bucket, "id" | "name" | "public" | "file_size_limit" | "allowed_mime_types" | "type"> & {
    owner: string | null;
    ownerId: string | null;
  },
): Promise<void> {
  await tx.query(
    `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.name, row.owner, row.ownerId, row.public, row.file_size_limit, row.allowed_mime_types, row.type],
  );
}

/** Changes the settings given (undefined leaves one as it is); false when the caller may not see the bucket. */
export async function updateBucket(
  tx: Queryable,
  id: string,
  changes: { public?: boolean; fileSizeLimit?: number | null; allowedMimeTypes?: string[] | null },
): Promise<boolean> {
  const updated = await tx.query(
    `update storage.buckets set
       public = coalesce($2, public),
       file_size_limit = case when $3 then $4 else file_size_limit end,
       allowed_mime_types = case when $5 then $6 else allowed_mime_types end,
       updated_at = now()
     where id = $1 returning id`,
    [
      id,
      changes.public ?? null,
      changes.fileSizeLimit !== undefined,
      changes.fileSizeLimit ?? null,
      changes.allowedMimeTypes !== undefined,
      changes.allowedMimeTypes ?? null,
    ],
  );
  return updated.length > 0;
}

/** False when the caller may not see (or delete) the bucket. */
export async function deleteBucket(tx: Queryable, id: string): Promise<boolean> {
  const deleted = await tx.query("delete from storage.buckets where id = $1 returning id", [id]);
  return deleted.length > 0;
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
