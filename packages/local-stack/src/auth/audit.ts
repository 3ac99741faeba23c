/** auth.audit_log_entries rows in GoTrue's payload shape (models/audit_log_entry.go). */
import { randomUUID } from "node:crypto";
import type { Queryable } from "../database/types.js";
import type { UserRow } from "./users.js";

const logTypes = {
  login: "account",
  logout: "account",
  user_signedup: "team",
  user_invited: "team",
  user_deleted: "team",
  user_modified: "user",
  user_recovery_requested: "user",
  user_confirmation_requested: "user",
  user_repeated_signup: "user",
  user_updated_password: "user",
  token_refreshed: "token",
  token_revoked: "token",
} as const;

export type AuditAction = keyof typeof logTypes;

export async function audit(
  db: Queryable,
  actor: Pick<UserRow, "id" | "email" | "raw_user_meta_data">,
  action: AuditAction,
  traits?: Record<string, unknown>,
): Promise<void> {
  const payload: Record<string, unknown> = {
    actor_id: actor.id,
    actor_via_sso: false,
    action,
    log_type: logTypes[action],
  };
  const name = actor.raw_user_meta_data?.full_name;
  if (name !== undefined) payload.actor_name = name;
  if (actor.email) payload.actor_username = actor.email;
  if (traits) payload.traits = traits;
  await db.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, now(), '')`,
    [randomUUID(), JSON.stringify(payload)],
  );
}
