/** Profile pictures in the `avatars` bucket: `<user_id>/<file>`, readable by the user's co-members. */
import { avatarTypes, limits } from "@engram/core";
import { run, validate } from "../request.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import {
  checkFile,
  type FileInput,
  objectPathSchema,
  type SignedUrlOptions,
  signedUrlLifetime,
  signedUrlSchema,
  storageRun,
  type UploadOptions,
  uniquePrefix,
} from "./files.js";

export function createAvatars(supabase: EngramClient) {
  const bucket = () => supabase.storage.from("avatars");

  async function currentAvatar(userId: string): Promise<string | null> {
    const rows = await run(supabase.from("profiles").select("avatar_path").eq("id", userId));
    return rows[0]?.avatar_path ?? null;
  }

  /** Deletes a replaced avatar. The profile already points at the new one, so a failure here loses nothing. */
  async function forget(path: string | null, keep: string | null): Promise<void> {
    if (path && path !== keep) await bucket().remove([path]);
  }

  return {
    /** Uploads the user's picture, points their profile at it and returns its path. */
    async uploadAvatar(file: FileInput, options: UploadOptions = {}): Promise<string> {
      const checked = checkFile(file, options, { maxBytes: limits.avatarBytes, types: avatarTypes, label: "Avatars" });
      const userId = await currentUserId(supabase);
      const previous = await currentAvatar(userId);
      // A new name each time, so caches and signed links never show the old picture.
      const path = `${userId}/${uniquePrefix()}-${checked.name}`;
      await storageRun(bucket().upload(path, checked.body, { contentType: checked.contentType }));
      await run(supabase.from("profiles").update({ avatar_path: path }).eq("id", userId));
      await forget(previous, path);
      return path;
    },

    /** Removes the user's picture. */
    async removeAvatar(): Promise<void> {
      const userId = await currentUserId(supabase);
      const previous = await currentAvatar(userId);
      await run(supabase.from("profiles").update({ avatar_path: null }).eq("id", userId));
      await forget(previous, null);
    },

    /** A link to the user's or a co-member's avatar (`avatar_path` from a profile or a member list). */
    async avatarUrl(path: string, options: SignedUrlOptions = {}): Promise<string> {
      const checked = validate(objectPathSchema, path);
      const { expiresIn } = validate(signedUrlSchema, options);
      const lifetime = await signedUrlLifetime(supabase, expiresIn);
      const data = await storageRun(bucket().createSignedUrl(checked, lifetime));
      return data.signedUrl;
    },
  };
}
