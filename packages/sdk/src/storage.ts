/**
 * Storage: deck media, avatars, import uploads and export downloads. Buckets are
 * private, so files are read through signed links. Sizes and types are checked
 * before upload, so an oversized file fails as `quota-exceeded` without a request.
 */

import { createAvatars } from "./storage/avatars.js";
import { createMedia } from "./storage/media.js";
import { createTransfers } from "./storage/transfers.js";
import type { EngramClient } from "./supabase-client.js";

export { avatarTypes, mediaTypes, transferTypes } from "@engram/core";
export type { FileInput, SignedUrlOptions, UploadOptions } from "./storage/files.js";
export type { MediaUploadOptions } from "./storage/media.js";
export type { SvgRasterizer } from "./storage/svg.js";
export type { ExportFile, ImportJob } from "./storage/transfers.js";

export function createStorage(supabase: EngramClient) {
  return {
    ...createMedia(supabase),
    ...createAvatars(supabase),
    ...createTransfers(supabase),
  };
}
