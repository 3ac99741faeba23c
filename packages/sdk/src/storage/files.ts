/** Files going into and out of Supabase Storage: size and type checks before upload, paths, error mapping. */
import { mediaTypeByExtension } from "@engram/core";
import { z } from "zod/mini";
import { EngramError, fromAuthError, fromStorageError, toEngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";

/** What the SDK uploads: a Blob or File (browser, Node 20), or raw bytes. */
export type FileInput = Blob | Uint8Array;

export interface UploadOptions {
  /** The file's name; a File's own name otherwise. Its extension also tells the type when none is given. */
  name?: string;
  /** The MIME type; the Blob's own type, or one guessed from the name, otherwise. */
  contentType?: string;
}

export interface SignedUrlOptions {
  /**
   * Seconds the link stays valid; one hour unless said. Never longer than the
   * session's current access token has left: a link made before signing out
   * stops working when that token would have.
   */
  expiresIn?: number;
}

const typesByExtension: Record<string, string> = {
  ...mediaTypeByExtension,
  // Not stored as such: recognised so that it can be drawn as PNG (svg.ts).
  svg: "image/svg+xml",
  apkg: "application/zip",
  colpkg: "application/zip",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  txt: "text/plain",
};

const extensionsByType: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
};

export interface FileRules {
  maxBytes: number;
  /** Accepted MIME types; any when absent. */
  types?: readonly string[];
  /** Says what the file is in messages ("Images and sounds", "Avatars"). */
  label: string;
}

export interface CheckedFile {
  body: Blob | Uint8Array;
  contentType: string;
  /** A name safe in a storage key, with an extension. */
  name: string;
}

const sizeUnits = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Refuses a file that is too large (`quota-exceeded`) or of the wrong type (`validation`) before it is sent. */
export function checkFile(file: FileInput, options: UploadOptions, rules: FileRules): CheckedFile {
  if (!(file instanceof Blob) && !(file instanceof Uint8Array)) {
    throw new EngramError("validation", "Choose a file to upload.", { field: "file", rule: "type" });
  }
  const size = file instanceof Blob ? file.size : file.byteLength;
  if (size > rules.maxBytes) {
    throw new EngramError("quota-exceeded", `${rules.label} can be at most ${sizeUnits(rules.maxBytes)}.`, {
      field: "file",
      rule: "max_size",
      detail: { size, limit: rules.maxBytes },
    });
  }
  const givenName = nameOf(file, options);
  const contentType = declaredType(file, options);
  if (rules.types && !rules.types.includes(contentType)) {
    throw new EngramError("validation", `${rules.label} must be one of: ${rules.types.join(", ")}.`, {
      field: "contentType",
      rule: "type",
      detail: { contentType, allowed: rules.types },
    });
  }
  // storage-js sends a Blob as a multipart part typed by the Blob itself, ignoring `contentType`.
  const body = file instanceof Blob && file.type !== contentType ? file.slice(0, file.size, contentType) : file;
  return { body, contentType, name: storageName(givenName, contentType) };
}

/** The name given, or a File's own. */
export function nameOf(file: FileInput, options: UploadOptions): string | undefined {
  return options.name ?? (file instanceof File ? file.name : undefined);
}

/** The type given, or the Blob's own, or one guessed from the name, without parameters. */
export function declaredType(file: FileInput, options: UploadOptions): string {
  return essence(
    options.contentType || (file instanceof Blob ? file.type : "") || typeFromName(nameOf(file, options)) || "",
  );
}

/** The MIME type without parameters (`audio/ogg; codecs=opus` → `audio/ogg`), as buckets compare it. */
function essence(type: string): string {
  const bare = type.split(";", 1)[0]?.trim().toLowerCase();
  return bare || "application/octet-stream";
}

export function typeFromName(name: string | undefined): string | undefined {
  const extension = name?.split(".").pop()?.toLowerCase();
  return extension ? typesByExtension[extension] : undefined;
}

/**
 * A name Storage keys accept everywhere (letters, digits, `._-`), made unique
 * unless the caller chose it, so two uploads of `image.png` do not collide.
 */
function storageName(given: string | undefined, contentType: string): string {
  const base = (given ?? "")
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(-100);
  const extension = extensionsByType[contentType];
  const withExtension = base && (base.includes(".") || !extension) ? base : `${base || "file"}.${extension ?? "bin"}`;
  return withExtension;
}

/** A fresh prefix that keeps generated names unique within a folder. */
export const uniquePrefix = () => globalThis.crypto.randomUUID().slice(0, 8);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An object path `<uuid>/<name…>` without `..` segments, as the storage policies expect. */
export const objectPathSchema = z.string({ error: "Give a file path." }).check(
  z.refine((path) => {
    const [folder, ...rest] = path.split("/");
    return (
      uuid.test(folder ?? "") && rest.length > 0 && rest.every((part) => part !== "" && part !== ".." && part !== ".")
    );
  }, "Give a file path like <deck or user id>/<file name>."),
);

export const signedUrlSchema = z.object({
  expiresIn: z._default(
    z
      .int({ error: "Give the link's lifetime in whole seconds." })
      .check(z.gte(1), z.lte(7 * 24 * 3600, "Links last at most 7 days.")),
    3600,
  ),
});

/** Storage counts a link's life from when it signs it, a request later: the cut leaves room for that. */
const signedUrlMarginSeconds = 30;

/**
 * Seconds a signed link may live: `expiresIn`, cut to what the session's
 * access token has left, less a margin. Signing out ends the session and the
 * database then refuses the token at once, but a link is checked only when
 * it is made and then lives on its own: cut this way, a link made before
 * "sign out of all devices" dies no later than the token it was made with.
 * getSession renews a token with less than 90 s left before answering, so a
 * cut link still lives a minute.
 */
export async function signedUrlLifetime(supabase: EngramClient, expiresIn: number): Promise<number> {
  let getSession: EngramClient["auth"]["getSession"];
  try {
    getSession = supabase.auth.getSession.bind(supabase.auth);
  } catch {
    // A client made by createEngramClient borrows a token and has no session to read.
    return expiresIn;
  }
  const { data, error } = await getSession();
  if (error) throw fromAuthError(error);
  const expiresAt = data.session?.expires_at;
  if (expiresAt === undefined) return expiresIn;
  const left = expiresAt - Math.ceil(Date.now() / 1000) - signedUrlMarginSeconds;
  return Math.max(1, Math.min(expiresIn, left));
}

/** The folder (deck or user id) an object path starts with. */
export const folderOf = (path: string) => path.split("/")[0] as string;

interface StorageResult<T> {
  data: T | null;
  error: { name: string; message: string; status?: number | string; statusCode?: string } | null;
}

/** Awaits a storage-js call and returns its data, throwing the mapped EngramError. */
export async function storageRun<T>(request: Promise<StorageResult<T>>): Promise<T> {
  let result: StorageResult<T>;
  try {
    result = await request;
  } catch (error) {
    throw toEngramError(error);
  }
  if (result.error) throw fromStorageError(result.error);
  return result.data as T;
}
