/**
 * The files an account leaves in Storage: its avatar, imports and exports
 * (`<user_id>/…`) and the media of the decks it owns (`<deck_id>/…`). Deleting
 * the auth user cascades through the tables, but never through Storage.
 */
import type { SupabaseClient } from "@supabase/supabase-js";

const pageSize = 1000;

/** Every object path under `prefix` in `bucket`, folders followed. */
async function listAll(admin: SupabaseClient, bucket: string, prefix: string): Promise<string[]> {
  const paths: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const { data, error } = await admin.storage.from(bucket).list(prefix, { limit: pageSize, offset });
    if (error) throw error;
    for (const entry of data) {
      const path = `${prefix}/${entry.name}`;
      // Folders come back without an id.
      if (entry.id === null) paths.push(...(await listAll(admin, bucket, path)));
      else paths.push(path);
    }
    if (data.length < pageSize) return paths;
  }
}

async function removeAll(admin: SupabaseClient, bucket: string, prefix: string): Promise<void> {
  const paths = await listAll(admin, bucket, prefix);
  for (let start = 0; start < paths.length; start += pageSize) {
    const { error } = await admin.storage.from(bucket).remove(paths.slice(start, start + pageSize));
    if (error) throw error;
  }
}

/** Removes the user's files; safe to run again after a partial failure. */
export async function removeAccountFiles(admin: SupabaseClient, userId: string): Promise<void> {
  const { data: decks, error } = await admin.from("decks").select("id").eq("owner_id", userId);
  if (error) throw error;
  for (const bucket of ["avatars", "imports", "exports"]) await removeAll(admin, bucket, userId);
  for (const deck of decks) await removeAll(admin, "media", deck.id);
}
