/** auth.mfa_factors and auth.mfa_challenges as GoTrue keeps them for TOTP. */
import { randomUUID } from "node:crypto";
import type { Queryable } from "../database/types.js";
import type { FactorRow } from "./users.js";

export interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
  same_ip: boolean;
  expired: boolean;
}

/** The user's TOTP factor with that id, if it is theirs. */
export async function findUserFactor(db: Queryable, userId: string, id: string): Promise<FactorRow | null> {
  const [factor] = await db.query<FactorRow>(
    "select * from auth.mfa_factors where id = $1 and user_id = $2 and factor_type = 'totp'",
    [id, userId],
  );
  return factor ?? null;
}

export const listUserFactors = (db: Queryable, userId: string) =>
  db.query<FactorRow>("select * from auth.mfa_factors where user_id = $1", [userId]);

/** Unverified enrolments older than `seconds` are dropped, as GoTrue's validateFactors does. */
export async function deleteStaleFactors(db: Queryable, seconds: number): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors where status = 'unverified' and created_at < now() - make_interval(secs => $1)`,
    [seconds],
  );
}

export async function insertTotpFactor(db: Queryable, userId: string, friendlyName: string, secret: string) {
  const id = randomUUID();
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
    [id, userId, friendlyName, secret],
  );
  return id;
}

export async function markFactorVerified(db: Queryable, factorId: string): Promise<void> {
  await db.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [factorId]);
}

export async function deleteUnverifiedTotpFactors(db: Queryable, userId: string): Promise<void> {
  await db.query("delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'totp'", [
    userId,
  ]);
}

export async function deleteFactor(db: Queryable, factorId: string): Promise<void> {
  await db.query("delete from auth.mfa_factors where id = $1", [factorId]);
}

/** A challenge bound to the caller's address; the factor remembers when it was last challenged. */
export async function createChallenge(db: Queryable, factorId: string, ip: string) {
  const [row] = await db.query<{ id: string; created_at: Date }>(
    `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)
     returning id, created_at`,
    [randomUUID(), factorId, ip],
  );
  await db.query("update auth.mfa_factors set last_challenged_at = now() where id = $1", [factorId]);
  return row as { id: string; created_at: Date };
}

/** The factor's challenge, with whether `ip` made it and whether it is older than `expirySeconds`. */
export async function findChallenge(
  db: Queryable,
  challengeId: string,
  factorId: string,
  ip: string,
  expirySeconds: number,
): Promise<ChallengeRow | null> {
  const [challenge] = await db.query<ChallengeRow>(
    `select id, factor_id, created_at, verified_at, ip_address = $3::inet as same_ip,
            created_at < now() - make_interval(secs => $4) as expired
       from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [challengeId, factorId, ip, expirySeconds],
  );
  return challenge ?? null;
}

export async function deleteChallenge(db: Queryable, id: string): Promise<void> {
  await db.query("delete from auth.mfa_challenges where id = $1", [id]);
}

export async function markChallengeVerified(db: Queryable, id: string): Promise<void> {
  await db.query("update auth.mfa_challenges set verified_at = now() where id = $1", [id]);
}
