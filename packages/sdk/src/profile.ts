/** The signed-in user's own profile and study settings (profiles are self-only under RLS). */
import { profileSettingsSchema } from "@engram/core";
import { z } from "zod";
import type { Tables } from "./database.types.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type Profile = Tables<"profiles">;

/** Any subset of the settings; each is checked by the same rule the database enforces. */
const profilePatchSchema = profileSettingsSchema.partial().extend({
  display_name: profileSettingsSchema.shape.display_name.unwrap().optional(),
  avatar_path: z.string().nullable().optional(),
});
export type ProfilePatch = z.input<typeof profilePatchSchema>;

export function createProfile(supabase: EngramClient) {
  return {
    async get(): Promise<Profile> {
      const id = await currentUserId(supabase);
      return run(supabase.from("profiles").select("*").eq("id", id).single());
    },

    async update(patch: ProfilePatch): Promise<Profile> {
      const checked = validate(profilePatchSchema, patch);
      const id = await currentUserId(supabase);
      return run(supabase.from("profiles").update(checked).eq("id", id).select("*").single());
    },
  };
}
