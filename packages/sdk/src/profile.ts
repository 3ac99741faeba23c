/** The signed-in user's own profile and study settings (profiles are self-only under RLS). */
import { profileSettingsSchema } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { fromAuthError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type Profile = Tables<"profiles">;

/** Any subset of the settings; each is checked by the same rule the database enforces. */
const profilePatchSchema = z.extend(z.partial(profileSettingsSchema), {
  display_name: z.optional(profileSettingsSchema.shape.display_name.def.innerType),
  avatar_path: z.optional(z.nullable(z.string())),
});
export type ProfilePatch = z.input<typeof profilePatchSchema>;

/** Set in the user's metadata when they confirm their name, even one equal to the default. */
const nameChosenFlag = "display_name_chosen";

/**
 * Whether the user chose the name others see: a new profile without a name
 * from sign-up takes the part of the email before the @ (supabase/schemas/10_profiles_and_decks.sql).
 */
export function displayNameChosen(
  profile: Pick<Profile, "display_name">,
  user: { email?: string | undefined; user_metadata?: Record<string, unknown> },
): boolean {
  const name = profile.display_name.trim();
  if (!name) return false;
  const metadata = user.user_metadata ?? {};
  if (metadata[nameChosenFlag] === true || typeof metadata.display_name === "string") return true;
  return name !== (user.email ?? "").split("@")[0];
}

export function createProfile(supabase: EngramClient) {
  async function update(patch: ProfilePatch): Promise<Profile> {
    const checked = validate(profilePatchSchema, patch);
    const id = await currentUserId(supabase);
    return run(supabase.from("profiles").update(checked).eq("id", id).select("*").single());
  }

  return {
    async get(): Promise<Profile> {
      const id = await currentUserId(supabase);
      return run(supabase.from("profiles").select("*").eq("id", id).single());
    },

    update,

    /** Saves the name others see and remembers that the user chose it (`displayNameChosen`). */
    async chooseName(displayName: string): Promise<Profile> {
      const profile = await update({ display_name: displayName });
      const { error } = await supabase.auth.updateUser({ data: { [nameChosenFlag]: true } });
      if (error) throw fromAuthError(error);
      return profile;
    },
  };
}
