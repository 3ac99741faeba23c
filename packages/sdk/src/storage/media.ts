/** Card images and sounds in the `media` bucket, one folder per deck: `<deck_id>/<file>`. */
import { limits, mediaTypes } from "@engram/core";
import { z } from "zod/mini";
import { memberRole, refuseDeck } from "../deck-access.js";
import { validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  checkFile,
  declaredType,
  type FileInput,
  folderOf,
  nameOf,
  objectPathSchema,
  type SignedUrlOptions,
  signedUrlLifetime,
  signedUrlSchema,
  storageRun,
  type UploadOptions,
  uniquePrefix,
} from "./files.js";
import { pngNameFor, type SvgRasterizer, svgAsPng, svgType } from "./svg.js";

export interface MediaUploadOptions extends UploadOptions {
  /** Draws an SVG as PNG (a browser page can; see `svg.ts`). Without it an SVG is refused. */
  rasterizeSvg?: SvgRasterizer;
}

const mediaRules = { maxBytes: limits.mediaBytes, types: mediaTypes, label: "Media files" };

/** An SVG becomes the PNG drawing of it, named `<name>.png`; any other file is sent as it is. */
async function storable(file: FileInput, options: MediaUploadOptions): Promise<[FileInput, UploadOptions]> {
  if (declaredType(file, options) !== svgType) return [file, options];
  checkFile(file, options, { maxBytes: mediaRules.maxBytes, label: mediaRules.label });
  const png = await svgAsPng(file, options.rasterizeSvg);
  return [png, { name: pngNameFor(nameOf(file, options) ?? "image.svg"), contentType: "image/png" }];
}

const deckIdSchema = z.guid("Unknown deck.");
const pathsSchema = z.array(objectPathSchema).check(z.minLength(1, "Choose at least one file."), z.maxLength(1000));

export function createMedia(supabase: EngramClient) {
  const bucket = () => supabase.storage.from("media");

  return {
    /**
     * Uploads an image or sound to a deck (owners and editors) and returns its
     * path, `<deck_id>/<file>`. Without `name` the file gets a unique name;
     * with one, an existing file of that name is a `conflict`. An SVG is stored
     * as the PNG `rasterizeSvg` draws of it (`diagram.svg` → `diagram.png`), and
     * refused (`validation`, rule `svg`) when there is none or it cannot draw it.
     */
    async uploadMedia(deckId: string, file: FileInput, options: MediaUploadOptions = {}): Promise<string> {
      const deck = validate(deckIdSchema, deckId);
      const [body, bodyOptions] = await storable(file, options);
      const checked = checkFile(body, bodyOptions, mediaRules);
      const name = options.name ? checked.name : `${uniquePrefix()}-${checked.name}`;
      const result = await storageRun(
        bucket().upload(`${deck}/${name}`, checked.body, { contentType: checked.contentType, upsert: false }),
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
