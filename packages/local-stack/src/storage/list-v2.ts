/**
 * `listV2()`: objects under a prefix by key, paged with an opaque cursor, as
 * Storage's `/object/list-v2`. Flat, every object whose key starts with the
 * prefix; with a delimiter, one level: the folders below it (`<path>/`) and its
 * objects, each with its `key` at that level (as `storage.search_v2`).
 */
import type { Queryable } from "../database/types.js";
import { errors } from "./errors.js";
import type { ListedRow } from "./list.js";

const maxKeys = 1000;

export interface ListV2Options {
  prefix: string;
  limit: number;
  delimited: boolean;
  column: "name" | "created_at" | "updated_at";
  order: "asc" | "desc";
  cursor: Cursor | null;
}

/** Where the previous page stopped: the last name, and its sort column's value when sorting by a timestamp. */
interface Cursor {
  name: string;
  after?: string;
}

export function listV2Options(body: Record<string, unknown>): ListV2Options {
  const limit = body.limit === undefined ? maxKeys : body.limit;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw errors.invalidRequest("body/limit must be >= 1");
  }
  const sortBy = (body.sortBy && typeof body.sortBy === "object" ? body.sortBy : {}) as Record<string, unknown>;
  const column = sortBy.column === "created_at" || sortBy.column === "updated_at" ? sortBy.column : "name";
  return {
    prefix: typeof body.prefix === "string" ? body.prefix : "",
    limit: Math.min(limit, maxKeys),
    delimited: body.with_delimiter === true,
    column,
    order: sortBy.order === "desc" ? "desc" : "asc",
    cursor: typeof body.cursor === "string" && body.cursor ? decodeCursor(body.cursor) : null,
  };
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Cursor;
    if (typeof cursor.name !== "string" || (cursor.after !== undefined && typeof cursor.after !== "string")) {
      throw new Error();
    }
    return cursor;
  } catch {
    throw errors.invalidRequest("Invalid cursor");
  }
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");

interface EntryRow extends ListedRow {
  key: string | null;
  sort_value: string | null;
}

/** A listed object; `key`, its name at the listed level, only in a delimited listing. */
type ListedObject = Omit<EntryRow, "sort_value" | "key"> & { key?: string };

export interface ListV2Result {
  hasNext: boolean;
  folders: { key: string; name: string }[];
  objects: ListedObject[];
  nextCursor?: string;
}

/** One page, as the caller may see it (RLS on storage.objects decides which names exist). */
export async function listV2(tx: Queryable, bucket: string, options: ListV2Options): Promise<ListV2Result> {
  const { column, order, cursor } = options;
  const comparison = order === "asc" ? ">" : "<";
  // Sorting by a timestamp applies to objects only: folders have none, and come first by name.
  const byTime = column !== "name";
  const sortValue = byTime ? `date_trunc('milliseconds', ${column})` : "null::timestamptz";
  const params: unknown[] = [bucket, options.prefix, options.limit + 1];
  let after = "";
  if (cursor) {
    params.push(cursor.name);
    if (cursor.after !== undefined && byTime) {
      params.push(cursor.after);
      after = `and sort_value is not null and (sort_value, name collate "C") ${comparison} ($5::timestamptz, $4)`;
    } else if (byTime) {
      after = `and (sort_value is not null or name collate "C" ${comparison} $4)`;
    } else {
      after = `and name collate "C" ${comparison} $4`;
    }
  }
  const entries = options.delimited
    ? // The level below the prefix's last slash: names deeper than it become their folder `<path>/`.
      `with visible as (
         select *, greatest(cardinality(string_to_array($2, '/')), 1) as level from storage.objects
         where bucket_id = $1 and starts_with(name, $2)
       ), entries as (
         select distinct
           split_part(name, '/', level) as key,
           array_to_string((string_to_array(name, '/'))[1:level], '/') || '/' as name,
           null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
           null::timestamptz as last_accessed_at, null::jsonb as metadata
         from visible where cardinality(string_to_array(name, '/')) > level
         union all
         select split_part(name, '/', level), name, id, updated_at, created_at, last_accessed_at, metadata
         from visible where cardinality(string_to_array(name, '/')) = level
       )
       select *, case when id is null then null::timestamptz else ${sortValue} end as sort_value from entries`
    : `select null::text as key, name, id, updated_at, created_at, last_accessed_at, metadata,
         ${sortValue} as sort_value
       from storage.objects where bucket_id = $1 and starts_with(name, $2)`;
  const rows = await tx.query<EntryRow>(
    `select * from (${entries}) listed where true ${after}
     order by sort_value ${order} nulls first, name collate "C" ${order} limit $3`,
    params,
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const result: ListV2Result = { hasNext: rows.length > options.limit, folders: [], objects: [] };
  for (const { sort_value: _, key, ...row } of page) {
    if (row.id === null) result.folders.push({ key: key ?? "", name: row.name });
    else result.objects.push(options.delimited && key !== null ? { key, ...row } : row);
  }
  if (result.hasNext && last) {
    const value = last.sort_value === null ? undefined : new Date(last.sort_value).toISOString();
    result.nextCursor = encodeCursor({ name: last.name, after: value });
  }
  return result;
}
