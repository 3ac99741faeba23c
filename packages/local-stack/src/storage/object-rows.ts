/** storage.objects: every row the Storage API reads or writes (list queries live in list.ts and list-v2.ts). */
import type { Queryable } from "../database/types.js";
import { errors } from "./errors.js";

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

const objectColumns =
  "id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at";

/** One object as `tx` may see it (RLS applies once the caller's role is set), or NoSuchKey. */
export async function findObject(tx: Queryable, bucket: string, key: string): Promise<ObjectRow> {
  const [row] = await tx.query<ObjectRow>(
    `select ${objectColumns} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  );
  if (!row) throw errors.noSuchKey();
  return row;
}

/** The object a write would replace, looked up with the server's privileges. */
export async function existingObject(
  tx: Queryable,
  bucket: string,
  key: string,
): Promise<{ id: string; version: string | null } | undefined> {
  const [row] = await tx.query<{ id: string; version: string | null }>(
    "select id, version from storage.objects where bucket_id = $1 and name = $2",
    [bucket, key],
  );
  return row;
}

/** Which of `names` the caller may see. */
export async function visibleNames(tx: Queryable, bucket: string, names: string[]): Promise<Set<string>> {
  const rows = await tx.query<{ name: string }>(
    "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
    [bucket, names],
  );
  return new Set(rows.map((row) => row.name));
}

export async function insertObject(
  tx: Queryable,
  row: {
    id: string;
    bucket: string;
    key: string;
    owner: string | null;
    ownerId: string | null;
    metadata: unknown;
    userMetadata: unknown;
    version: string;
    upsert: boolean;
  },
): Promise<void> {
  // No RETURNING: it would also need a SELECT policy, which Storage does not ask of uploaders.
  const conflict = row.upsert
    ? `on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
         metadata = excluded.metadata, user_metadata = excluded.user_metadata, version = excluded.version,
         updated_at = now(), last_accessed_at = now()`
    : "";
  await tx.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
     values ($8, $1, $2, $3, $4, $5::jsonb, $6::jsonb, $7) ${conflict}`,
    [
      row.bucket,
      row.key,
      row.owner,
      row.ownerId,
      JSON.stringify(row.metadata),
      row.userMetadata === null ? null : JSON.stringify(row.userMetadata),
      row.version,
      row.id,
    ],
  );
}

/**
 * The row an upload would write, without its bytes: what signing an upload URL
 * tries (and rolls back) so the INSERT, and for upsert the UPDATE, policy decides.
 */
export async function insertPlaceholder(
  tx: Queryable,
  row: { bucket: string; key: string; owner: string | null; ownerId: string | null; upsert: boolean },
): Promise<void> {
  await tx.query(
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3, $4, '{}')
     ${row.upsert ? "on conflict (bucket_id, name) do update set owner = excluded.owner, updated_at = now()" : ""}`,
    [row.bucket, row.key, row.owner, row.ownerId],
  );
}

/** Renames an object (into another bucket too) with its new file version; false when the caller may not. */
export async function moveObject(
  tx: Queryable,
  from: { bucket: string; key: string },
  to: { bucket: string; key: string; version: string },
): Promise<boolean> {
  const updated = await tx.query(
    `update storage.objects set bucket_id = $3, name = $4, version = $5, updated_at = now()
     where bucket_id = $1 and name = $2 returning id`,
    [from.bucket, from.key, to.bucket, to.key, to.version],
  );
  return updated.length > 0;
}

/** Deletes what the caller may of `names`, returning the deleted rows. */
export function deleteObjects(tx: Queryable, bucket: string, names: string[]): Promise<ObjectRow[]> {
  return tx.query<ObjectRow>(
    `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${objectColumns}`,
    [bucket, names],
  );
}

/** Deletes every object of the bucket the caller may, returning their files' names and versions. */
export function deleteBucketObjects(
  tx: Queryable,
  bucket: string,
): Promise<{ name: string; version: string | null }[]> {
  return tx.query<{ name: string; version: string | null }>(
    "delete from storage.objects where bucket_id = $1 returning name, version",
    [bucket],
  );
}

export async function countBucketObjects(tx: Queryable, bucket: string): Promise<number> {
  const [row] = await tx.query<{ count: number }>(
    "select count(*)::int as count from storage.objects where bucket_id = $1",
    [bucket],
  );
  return row?.count ?? 0;
}
