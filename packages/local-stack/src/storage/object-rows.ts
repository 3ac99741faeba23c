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
 * The trial row of Storage's `canUpload`, written as the caller and rolled back
 * (see `asCallerRolledBack`): version '1', the owner, and only the metadata the
 * request declared. A column left undefined is left out, as Storage leaves it.
 * An upsert updates what it sets, so the UPDATE policy decides too.
 */
export async function insertTrialObject(
  tx: Queryable,
  row: {
    bucket: string;
    key: string;
    owner: string | null;
    ownerId: string | null;
    metadata: Record<string, unknown> | undefined;
    userMetadata: unknown;
    upsert: boolean;
  },
): Promise<void> {
  const values: Record<string, unknown> = {
    bucket_id: row.bucket,
    name: row.key,
    version: "1",
    owner: row.owner ?? undefined,
    owner_id: row.ownerId ?? undefined,
    metadata: row.metadata === undefined ? undefined : JSON.stringify(row.metadata),
    user_metadata: row.userMetadata == null ? undefined : JSON.stringify(row.userMetadata),
  };
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  const casts: Record<string, string> = { owner: "::uuid", metadata: "::jsonb", user_metadata: "::jsonb" };
  const updated = columns.filter((column) => column !== "bucket_id" && column !== "name");
  const conflict = row.upsert
    ? `on conflict (name, bucket_id) do update set ${updated.map((column) => `${column} = excluded.${column}`).join(", ")}`
    : "";
  await tx.query(
    `insert into storage.objects (${columns.join(", ")})
     values (${columns.map((column, i) => `$${i + 1}${casts[column] ?? ""}`).join(", ")}) ${conflict}`,
    columns.map((column) => values[column]),
  );
}

/**
 * Renames an object (into another bucket too) with its new file version and
 * the mover as owner, as Storage records it (the JWT's `sub`; a token without
 * one, such as the service role's, leaves the owner as it was); false when no
 * row was changed. `lastModified` is the new file's time, set by the real move.
 */
export async function moveObject(
  tx: Queryable,
  from: { bucket: string; key: string },
  to: { bucket: string; key: string; version: string },
  mover: { owner: string | null; ownerId: string | null },
  lastModified?: string,
): Promise<boolean> {
  const updated = await tx.query(
    `update storage.objects set bucket_id = $3, name = $4, version = $5,
       owner = coalesce($6::uuid, owner), owner_id = coalesce($7, owner_id),
       metadata = case when $8::text is null then metadata
                       else coalesce(metadata, '{}') || jsonb_build_object('lastModified', $8::text) end,
       updated_at = now()
     where bucket_id = $1 and name = $2 returning id`,
    [from.bucket, from.key, to.bucket, to.key, to.version, mover.owner, mover.ownerId, lastModified ?? null],
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
