/**
 * Files for the import and export functions: uploads to `imports/<user_id>/`,
 * the user's import jobs, and the finished exports in `exports/<user_id>/`.
 */
import { limits, transferTypes } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "../database.types.js";
import { EngramError } from "../errors.js";
import { run, validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  checkFile,
  type FileInput,
  nameOf,
  objectPathSchema,
  type SignedUrlOptions,
  signedUrlLifetime,
  signedUrlSchema,
  storageRun,
  typeFromName,
  type UploadOptions,
  uniquePrefix,
} from "./files.js";

export type ImportJob = Tables<"import_jobs">;

export interface ExportFile {
  /** The path in the `exports` bucket, for `exportUrl`. */
  path: string;
  name: string;
  size: number | null;
  created_at: string | null;
}

const jobIdSchema = z.guid("Unknown import.");

export function createTransfers(supabase: EngramClient) {
  const imports = () => supabase.storage.from("imports");
  const exports = () => supabase.storage.from("exports");

  return {
    /**
     * Uploads a deck file (.apkg, .csv, .tsv) for the import function and returns its path in `imports`.
     * Its type comes from its name (a browser may call a .csv `application/vnd.ms-excel`), bytes otherwise.
     */
    async uploadImport(file: FileInput, options: UploadOptions = {}): Promise<string> {
      const contentType = options.contentType || typeFromName(nameOf(file, options)) || "application/octet-stream";
      const checked = checkFile(
        file,
        { ...options, contentType },
        { maxBytes: limits.importBytes, types: transferTypes, label: "Import files" },
      );
      const userId = await currentUserId(supabase);
      const path = `${userId}/${uniquePrefix()}-${checked.name}`;
      const result = await storageRun(imports().upload(path, checked.body, { contentType: checked.contentType }));
      return result.path;
    },

    /** The user's import jobs, newest first. */
    async importJobs(): Promise<ImportJob[]> {
      await currentUserId(supabase);
      return run(supabase.from("import_jobs").select("*").order("created_at", { ascending: false }));
    },

    /** One of the user's import jobs; `not-found` for anyone else's. */
    async importJob(jobId: string): Promise<ImportJob> {
      const id = validate(jobIdSchema, jobId);
      const rows = await run(supabase.from("import_jobs").select("*").eq("id", id));
      if (!rows[0]) throw new EngramError("not-found", "This import does not exist.");
      return rows[0];
    },

    /** The user's finished exports, newest first. */
    async listExports(): Promise<ExportFile[]> {
      const userId = await currentUserId(supabase);
      const files = await storageRun(
        exports().list(userId, { limit: 1000, sortBy: { column: "created_at", order: "desc" } }),
      );
      return files
        .filter((file) => file.id !== null)
        .map((file) => ({
          path: `${userId}/${file.name}`,
          name: file.name,
          size: typeof file.metadata?.size === "number" ? file.metadata.size : null,
          created_at: file.created_at ?? null,
        }));
    },

    /** A download link for one of the user's exports. */
    async exportUrl(path: string, options: SignedUrlOptions = {}): Promise<string> {
      const checked = validate(objectPathSchema, path);
      const { expiresIn } = validate(signedUrlSchema, options);
      const lifetime = await signedUrlLifetime(supabase, expiresIn);
      const data = await storageRun(exports().createSignedUrl(checked, lifetime, { download: true }));
      return data.signedUrl;
    },
  };
}
