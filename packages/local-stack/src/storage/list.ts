/** `list()`: one folder level of a bucket, with sub-folders synthesised from deeper names as `storage.search` does. */
import type { Queryable } from "../database/types.js";
import { errors } from "./errors.js";

/** An object or synthesised folder (id null) as Storage lists it. */
export interface ListedRow {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

export interface ListOptions {
  prefix: string;
  limit: number;
  offset: number;
  search: string;
  column: "name" | "created_at" | "updated_at" | "last_accessed_at";
  order: "asc" | "desc";
}

export function listOptions(body: Record<string, unknown>): ListOptions {
  const sortBy = (body.sortBy && typeof body.sortBy === "object" ? body.sortBy : {}) as Record<string, unknown>;
  const columns = ["name", "created_at", "updated_at", "last_accessed_at"] as const;
  const column = columns.find((name) => name === sortBy.column) ?? "name";
  const limit = Number(body.limit ?? 100);
  const offset = Number(body.offset ?? 0);
  if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(offset) || offset < 0) {
    throw errors.invalidRequest("limit and offset must be non-negative integers");
  }
  let prefix = typeof body.prefix === "string" ? body.prefix.replace(/^\/+/, "") : "";
  if (prefix && !prefix.endsWith("/")) prefix += "/";
  return {
    prefix,
    limit,
    offset,
    search: typeof body.search === "string" ? body.search : "",
    column,
    order: String(sortBy.order).toLowerCase() === "desc" ? "desc" : "asc",
  };
}

/**
 * Sorted by name, folders and files interleave (lower-cased, byte order), as
 * storage.search's skip-scan emits them; by a timestamp, folders come first
 * (by name), then files. Offset and limit apply to the combined list.
 */
export async function listLevel(tx: Queryable, bucket: string, options: ListOptions): Promise<ListedRow[]> {
  const start = options.prefix + options.search;
  const rows = await tx.query<ListedRow>(
    `select name, id, updated_at, created_at, last_accessed_at, metadata from storage.objects
     where bucket_id = $1 and lower(left(name, length($2))) = lower($2)`,
    [bucket, start],
  );
  const folders = new Map<string, ListedRow>();
  const objects: ListedRow[] = [];
  for (const row of rows) {
    const rest = row.name.slice(options.prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) {
      objects.push({ ...row, name: rest });
      continue;
    }
    const name = rest.slice(0, slash);
    if (!folders.has(name.toLowerCase())) {
      folders.set(name.toLowerCase(), {
        name,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      });
    }
  }
  const direction = options.order === "desc" ? -1 : 1;
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0) * direction;
  const sortKey = (row: ListedRow) => (row.id === null ? `${row.name}/` : row.name).toLowerCase();
  let listed: ListedRow[];
  if (options.column === "name") {
    listed = [...folders.values(), ...objects].sort((a, b) => compare(sortKey(a), sortKey(b)));
  } else {
    const key = options.column;
    const byTime = (a: ListedRow, b: ListedRow) =>
      (new Date(a[key] ?? 0).getTime() - new Date(b[key] ?? 0).getTime()) * direction ||
      compare(sortKey(a), sortKey(b));
    listed = [...[...folders.values()].sort((a, b) => compare(sortKey(a), sortKey(b))), ...objects.sort(byTime)];
  }
  return listed.slice(options.offset, options.offset + Math.min(options.limit, 1500));
}
