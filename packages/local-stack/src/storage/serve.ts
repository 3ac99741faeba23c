/**
 * Answers with an object's bytes and the headers Storage's renderer sends (HTML served
 * as text/plain, `X-Robots-Tag: none`); strict mode adds nosniff and a sandbox policy.
 */
import type { Context } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { protectiveHeaders } from "./content.js";
import { errors } from "./errors.js";
import type { ObjectFiles } from "./files.js";
import type { ObjectRow } from "./object-rows.js";

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value ? value : fallback;
}

export async function sendObject(
  c: Context<StackEnv>,
  files: ObjectFiles,
  row: ObjectRow,
  { strict }: { strict: boolean },
): Promise<Response> {
  if (!row.version) throw errors.noSuchKey();
  const bytes = await files.read(row.bucket_id, row.name, row.version);
  const metadata = row.metadata ?? {};
  const headers = new Headers({
    "content-type": servedType(text(metadata.mimetype, "application/octet-stream")),
    "cache-control": text(metadata.cacheControl, "no-cache"),
    "accept-ranges": "bytes",
    "x-robots-tag": "none",
    ...(strict ? protectiveHeaders : {}),
  });
  if (typeof metadata.eTag === "string") headers.set("etag", metadata.eTag);
  const modified = new Date(text(metadata.lastModified, String(row.updated_at)));
  if (!Number.isNaN(modified.getTime())) headers.set("last-modified", modified.toUTCString());
  const download = c.req.query("download");
  if (download !== undefined) {
    const filename = encodeURIComponent(download);
    headers.set(
      "content-disposition",
      download ? `attachment; filename=${filename}; filename*=UTF-8''${filename}` : "attachment;",
    );
  }
  const etag = headers.get("etag");
  if (etag && c.req.header("if-none-match") === etag) return new Response(null, { status: 304, headers });

  const range = c.req.header("range");
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && match && (match[1] || match[2])) {
    const size = bytes.byteLength;
    let start = match[1] ? Number(match[1]) : Math.max(0, size - Number(match[2]));
    let end = match[1] && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
    if (!match[1]) end = size - 1;
    if (start >= size || start > end) {
      headers.set("content-range", `bytes */${size}`);
      return c.json(
        { statusCode: "416", code: "InvalidRange", error: "invalid_range", message: "Invalid Range" },
        416,
        Object.fromEntries(headers),
      );
    }
    start = Math.max(0, start);
    end = Math.max(start, end);
    headers.set("content-range", `bytes ${start}-${end}/${size}`);
    headers.set("content-length", String(end - start + 1));
    return new Response(bodyOf(bytes.subarray(start, end + 1)), { status: 206, headers });
  }
  headers.set("content-length", String(bytes.byteLength));
  return new Response(bodyOf(bytes), { status: 200, headers });
}

/** Storage never serves a stored type naming HTML as such: it goes out as plain text. */
function servedType(mimetype: string): string {
  return mimetype.includes("text/html") ? "text/plain" : mimetype;
}

/** The bytes as a Response body without copying (a file read is backed by a plain ArrayBuffer). */
function bodyOf(bytes: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
