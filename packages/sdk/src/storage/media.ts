/** Card images and sounds in the `media` bucket, one folder per deck: `<deck_id>/<file>`. */
import { limits, mediaTypes, sanitizeSvg } from "@engram/core";
import { z } from "zod";
import { memberRole, refuseDeck } from "../deck-access.js";
import { EngramError } from "../errors.js";
import { validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  checkFile,
  type FileInput,
  folderOf,
  objectPathSchema,
  type SignedUrlOptions,
  signedUrlLifetime,
  signedUrlSchema,
  storageRun,
  type UploadOptions,
  uniquePrefix,
} from "./files.js";

const deckIdSchema = z.guid("Unknown deck.");
const pathsSchema = z.array(objectPathSchema).min(1, "Choose at least one file.").max(1000);

export function createMedia(supabase: EngramClient) {
  const bucket = () => supabase.storage.from("media");

  return {
    /**
     * Uploads an image or sound to a deck (owners and editors) and returns its
     * path, `<deck_id>/<file>`. Without `name` the file gets a unique name;
     * with one, an existing file of that name is a `conflict`.
     */
    async uploadMedia(deckId: string, file: FileInput, options: UploadOptions = {}): Promise<string> {
      const deck = validate(deckIdSchema, deckId);
      const checked = checkFile(file, options, {
        maxBytes: limits.mediaBytes,
        types: mediaTypes,
        label: "Media files",
      });
      const name = options.name ? checked.name : `${uniquePrefix()}-${checked.name}`;
      const body = checked.contentType === "image/svg+xml" ? await drawingOnly(checked.body) : checked.body;
      const result = await storageRun(
        bucket().upload(`${deck}/${name}`, body, { contentType: checked.contentType, upsert: false }),
      ).catch(async (error: unknown) => {
        // Storage refuses an upload to an unknown deck and to a deck one only reads alike.
        if ((error as { code?: string }).code === "permission-denied") {
          await refuseDeck(supabase, deck, "Only the deck's owner and editors can add media to it.");
        }
        throw error;
      });
      return result.path;
    },

    /** A link to a media file that works without a session for `expiresIn` seconds (decks are private). */
    async mediaUrl(path: string, options: SignedUrlOptions = {}): Promise<string> {
      const checked = validate(objectPathSchema, path);
      const { expiresIn } = validate(signedUrlSchema, options);
      const lifetime = await signedUrlLifetime(supabase, expiresIn);
      const data = await storageRun(bucket().createSignedUrl(checked, lifetime));
      return data.signedUrl;
    },

    async downloadMedia(path: string): Promise<Blob> {
      const checked = validate(objectPathSchema, path);
      return storageRun(bucket().download(checked));
    },

    /** Deletes media files (owners and editors); returns how many existed. */
    async removeMedia(paths: string | string[]): Promise<number> {
      const checked = validate(pathsSchema, typeof paths === "string" ? [paths] : paths);
      // Storage skips objects a policy hides instead of failing; check the right first.
      const me = await currentUserId(supabase);
      for (const deck of new Set(checked.map(folderOf))) {
        const role = await memberRole(supabase, deck, me);
        if (role !== "owner" && role !== "editor") {
          await refuseDeck(supabase, deck, "Only the deck's owner and editors can delete its media.");
        }
      }
      const removed = await storageRun(bucket().remove(checked));
      return removed.length;
    },
  };
}

/** An SVG opened on its own can run script; only its drawing is stored (docs/product.md §5). */
async function drawingOnly(file: Blob | Uint8Array): Promise<Blob> {
  const text = file instanceof Blob ? await file.text() : new TextDecoder().decode(file);
  const clean = sanitizeSvg(text);
  if (!clean) throw new EngramError("validation", "This SVG has nothing to draw.", { field: "file", rule: "svg" });
  return new Blob([clean], { type: "image/svg+xml" });
}
