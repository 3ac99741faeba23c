/**
 * Invite links to a deck: owners create, list and revoke them; anyone may
 * preview one by token, and anyone signed in accepts it.
 */
import { inviteInputSchema } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { memberRole, refuseDeck } from "./deck-access.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type InviteStatus = "active" | "revoked" | "expired" | "used_up";
/** An invite row with what it can still do. The link to share is built from `token`. */
export type Invite = Tables<"deck_invites"> & { status: InviteStatus };
export type InviteInput = z.input<typeof inviteInputSchema>;
interface PreviewBase {
  deck_name: string;
  /** The owner's display name; null when they have none. */
  owner_name: string | null;
  role: "editor" | "viewer";
  expires_at: string;
}
/** What the deck holds, shown to holders of a working link and to its members. */
interface DeckContents {
  deck_id: string;
  description: string;
  note_count: number;
}
type Hidden = { [Key in keyof DeckContents]: null };
type DeadStatus = Exclude<InviteStatus, "active">;
/**
 * What an invite link leads to, shown before accepting it (signed out too).
 * A link that no longer works shows someone outside the deck only its name
 * and owner: whom to ask for a new one. `is_member` is false when signed out.
 */
export type InvitePreview =
  | (PreviewBase & DeckContents & { status: "active"; is_member: boolean })
  | (PreviewBase & DeckContents & { status: DeadStatus; is_member: true })
  | (PreviewBase & Hidden & { status: DeadStatus; is_member: false });

const deckIdSchema = z.guid("Unknown deck.");
const inviteIdSchema = z.guid("Unknown invite.");
const tokenSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, "This invite link is incomplete."),
    z.maxLength(200, "This invite link is not valid."),
  );

export function createInvites(supabase: EngramClient) {
  return {
    /**
     * Creates an invite (owners only). A deck has at most 20 active invites:
     * one more fails with `quota-exceeded`.
     */
    async create(deckId: string, input: InviteInput): Promise<Invite> {
      const id = validate(deckIdSchema, deckId);
      const { role, expires_in_days, max_uses } = validate(inviteInputSchema, input);
      await currentUserId(supabase);
      const invite: Tables<"deck_invites"> = await run(
        supabase
          .rpc("create_invite", {
            p_deck_id: id,
            p_role: role,
            p_expires_in_days: expires_in_days,
            ...(max_uses === null ? {} : { p_max_uses: max_uses }),
          })
          .single(),
      );
      return withStatus(invite);
    },

    /** The deck's invites, newest first, revoked and expired ones included (owners only). */
    async list(deckId: string, now: Date = new Date()): Promise<Invite[]> {
      const id = validate(deckIdSchema, deckId);
      await currentUserId(supabase);
      const rows = await run(
        supabase.from("deck_invites").select("*").eq("deck_id", id).order("created_at", { ascending: false }),
      );
      // Only owners see invites, so an empty answer may mean "not yours".
      if (rows.length === 0) await requireOwner(supabase, id);
      return rows.map((row) => withStatus(row, now));
    },

    /** Revokes an invite for good (owners only); revoking a revoked invite changes nothing. */
    async revoke(inviteId: string): Promise<Invite> {
      const id = validate(inviteIdSchema, inviteId);
      await currentUserId(supabase);
      const updated = await run(
        supabase
          .from("deck_invites")
          .update({ revoked_at: new Date().toISOString() })
          .eq("id", id)
          .is("revoked_at", null)
          .select("*"),
      );
      if (updated[0]) return withStatus(updated[0]);
      const existing = await run(supabase.from("deck_invites").select("*").eq("id", id));
      if (!existing[0]) throw new EngramError("not-found", "This invite does not exist or is not yours to revoke.");
      return withStatus(existing[0]);
    },

    /**
     * The deck an invite link leads to, its role and whether it can still be
     * accepted. Works signed out. An unknown token → `not-found`.
     */
    async preview(token: string): Promise<InvitePreview> {
      const checked = validate(tokenSchema, token);
      const [preview] = await run(supabase.rpc("invite_preview", { p_token: checked }));
      if (!preview) throw new EngramError("not-found", "This invite does not exist.", { field: "token" });
      return preview as InvitePreview;
    },

    /**
     * Joins the invite's deck and returns the deck's id. A revoked, expired or
     * used-up invite fails with `not-found` and `rule` saying which.
     */
    async accept(token: string): Promise<string> {
      const checked = validate(tokenSchema, token);
      await currentUserId(supabase);
      return run(supabase.rpc("accept_invite", { p_token: checked }));
    },
  };
}

function withStatus(invite: Tables<"deck_invites">, now: Date = new Date()): Invite {
  return { ...invite, status: inviteStatus(invite, now) };
}

/** The same order of reasons accept_invite checks. */
function inviteStatus(invite: Tables<"deck_invites">, now: Date): InviteStatus {
  if (invite.revoked_at !== null) return "revoked";
  if (new Date(invite.expires_at).getTime() <= now.getTime()) return "expired";
  if (invite.max_uses !== null && invite.uses >= invite.max_uses) return "used_up";
  return "active";
}

async function requireOwner(supabase: EngramClient, deckId: string): Promise<void> {
  const role = await memberRole(supabase, deckId, await currentUserId(supabase));
  if (role === "owner") return;
  await refuseDeck(supabase, deckId, "Only the owner can see this deck's invites.");
}
