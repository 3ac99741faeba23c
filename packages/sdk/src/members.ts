/** Who belongs to a deck and with which role: list, change roles, remove, leave. */
import { z } from "zod/mini";
import type { Database } from "./database.types.js";
import { memberRole, refuseDeck } from "./deck-access.js";
import type { DeckRole } from "./decks.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

type MemberProfileRow = Database["public"]["Functions"]["deck_member_profiles"]["Returns"][number];
/** A member of a deck with the name and avatar co-members may see (the avatar path is null until one is set). */
export type DeckMember = Omit<MemberProfileRow, "avatar_path"> & { avatar_path: string | null };
/** Roles an owner can give; ownership itself is not handed out this way. */
export type MemberRole = Exclude<DeckRole, "owner">;

const deckIdSchema = z.guid("Unknown deck.");
const userIdSchema = z.guid("Unknown member.");
const memberRoleSchema = z.enum(["editor", "viewer"], { error: "Choose editor or viewer." });

export function createMembers(supabase: EngramClient) {
  return {
    /** The deck's members with names, avatars and roles (owner first), for any member of the deck. */
    async list(deckId: string): Promise<DeckMember[]> {
      const id = validate(deckIdSchema, deckId);
      await currentUserId(supabase);
      return run(supabase.rpc("deck_member_profiles", { p_deck_id: id }));
    },

    /** Makes a member an editor or a viewer (owners only). */
    async setRole(deckId: string, userId: string, role: MemberRole): Promise<void> {
      const deck = validate(deckIdSchema, deckId);
      const user = validate(userIdSchema, userId);
      const checked = validate(memberRoleSchema, role);
      await currentUserId(supabase);
      const updated = await run(
        supabase.from("deck_members").update({ role: checked }).eq("deck_id", deck).eq("user_id", user).select("role"),
      );
      if (updated.length === 0) await refuseMemberChange(supabase, deck, user, "change roles in");
    },

    /** Removes a member from the deck (owners only; the owner cannot be removed). */
    async remove(deckId: string, userId: string): Promise<void> {
      const deck = validate(deckIdSchema, deckId);
      const user = validate(userIdSchema, userId);
      await currentUserId(supabase);
      const removed = await run(
        supabase.from("deck_members").delete().eq("deck_id", deck).eq("user_id", user).select("user_id"),
      );
      if (removed.length === 0) await refuseMemberChange(supabase, deck, user, "remove members from");
    },

    /** Leaves a deck shared with the user. Owners cannot leave: the deck would have nobody to run it. */
    async leave(deckId: string): Promise<void> {
      const deck = validate(deckIdSchema, deckId);
      const me = await currentUserId(supabase);
      const left = await run(
        supabase.from("deck_members").delete().eq("deck_id", deck).eq("user_id", me).select("user_id"),
      );
      if (left.length > 0) return;
      const role = await memberRole(supabase, deck, me);
      if (role === "owner") {
        throw new EngramError("permission-denied", "The owner cannot leave a deck; delete it or hand it over first.", {
          rule: "owner_cannot_leave",
        });
      }
      throw new EngramError("not-found", "You are not a member of this deck.");
    },
  };
}

/** RLS turns a refused change into "no rows"; say which of deck, member or role was the reason. */
async function refuseMemberChange(
  supabase: EngramClient,
  deckId: string,
  userId: string,
  action: string,
): Promise<never> {
  const me = await currentUserId(supabase);
  const myRole = await memberRole(supabase, deckId, me);
  if (myRole === null) await refuseDeck(supabase, deckId, `Only the owner can ${action} this deck.`);
  if (myRole !== "owner") throw new EngramError("permission-denied", `Only the owner can ${action} this deck.`);
  const theirRole = await memberRole(supabase, deckId, userId);
  if (theirRole === null) throw new EngramError("not-found", "This person is not a member of the deck.");
  throw new EngramError("permission-denied", "The owner's membership cannot be changed.", { rule: "owner_is_fixed" });
}
