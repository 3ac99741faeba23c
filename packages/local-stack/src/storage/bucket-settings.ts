/** A bucket's settings from a request body, read and refused as Storage does. */
import { errors } from "./errors.js";

/**
 * `file_size_limit`: bytes, or a decimal size ("20MB", "1.5GB", "300KB", "3B")
 * as Storage parses it, never above the global limit. `undefined` when absent,
 * `null` to remove a limit.
 */
export function fileSizeLimit(value: unknown, globalLimit: number): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  let bytes: number;
  if (typeof value === "number") bytes = value;
  else if (typeof value === "string") bytes = parseFileSize(value);
  else throw errors.invalidFileSizeLimit();
  if (!Number.isFinite(bytes) || bytes < 0) throw errors.invalidFileSizeLimit();
  if (bytes > globalLimit) throw errors.entityTooLarge();
  return bytes;
}

const units: Record<string, number> = { GB: 1e9, MB: 1e6, KB: 1000, B: 1 };

function parseFileSize(text: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(text);
  if (!match) throw errors.invalidFileSizeLimit();
  return Math.round(Number.parseFloat(match[1] as string) * (units[(match[2] as string).toUpperCase()] as number));
}

// Storage's check on each allowed type: `type/subtype` (with an optional charset), or a `*` wildcard.
const allowedType = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

/** `allowed_mime_types`: the first type Storage would not accept is `InvalidMimeType`. */
export function allowedMimeTypes(value: unknown): string[] | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!Array.isArray(value)) throw errors.invalidRequest("body/allowed_mime_types must be array");
  for (const type of value) {
    if (typeof type !== "string" || type.length > 1000 || !allowedType.test(type)) {
      throw errors.invalidMimeType(String(type));
    }
  }
  return value.length ? (value as string[]) : null;
}
