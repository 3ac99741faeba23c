/** PKCE flow state (auth.flow_state): created with the challenge, stamped at verify, consumed by the code exchange. */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../database/types.js";
import { AuthError, badRequest, unprocessable } from "./errors.js";

// GoTrue's default (and minimum) flow state lifetime.
const flowStateExpirySeconds = 300;

export interface Challenge {
  codeChallenge: string;
  method: "s256" | "plain";
}

/** The PKCE challenge of a request body, or null for the implicit flow. */
export function readChallenge(body: Record<string, unknown>): Challenge | null {
  const challenge = body.code_challenge;
  const method = body.code_challenge_method;
  if (!challenge && !method) return null;
  if (typeof challenge !== "string" || !challenge || typeof method !== "string" || !method) {
    throw badRequest("validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
  }
  const lower = method.toLowerCase();
  if (lower !== "s256" && lower !== "plain") {
    throw badRequest("validation_failed", `code challenge method not supported: ${method}`);
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest("validation_failed", "code challenge has to be between 43 and 128 characters");
  }
  return { codeChallenge: challenge, method: lower };
}

export async function createFlowState(
  db: Queryable,
  userId: string,
  challenge: Challenge,
  authenticationMethod: string,
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, 'email', now(), now(), $6)`,
    [randomUUID(), userId, randomUUID(), challenge.method, challenge.codeChallenge, authenticationMethod],
  );
}

/**
 * At verify: the user's newest flow for that method (else their newest flow: `/otp` for a new
 * user sends a signup link for a magic-link flow) gets its code issued; returns the auth code.
 */
export async function issueAuthCode(db: Queryable, userId: string, authenticationMethod: string): Promise<string> {
  const [flow] = await db.query<{ id: string; auth_code: string }>(
    `select id, auth_code from auth.flow_state where user_id = $1
     order by authentication_method = $2 desc, created_at desc limit 1`,
    [userId, authenticationMethod],
  );
  if (!flow) throw new AuthError(404, "flow_state_not_found", "Flow state not found");
  await db.query("update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1", [flow.id]);
  return flow.auth_code;
}

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge_method: string;
  code_challenge: string;
  authentication_method: string;
  created_at: Date;
  auth_code_issued_at: Date | null;
}

/** `grant_type=pkce`: checks the code and verifier, deletes the flow (single use), returns the user and method. */
export async function consumeFlowState(db: Queryable, authCode: unknown, verifier: unknown) {
  if (typeof authCode !== "string" || !authCode || typeof verifier !== "string" || !verifier) {
    throw badRequest("validation_failed", "invalid request: both auth code and code verifier should be non-empty");
  }
  const [flow] = await db.query<FlowStateRow>("select * from auth.flow_state where auth_code = $1", [authCode]);
  if (!flow?.user_id) throw new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
  const from =
    flow.authentication_method === "magiclink" && flow.auth_code_issued_at ? flow.auth_code_issued_at : flow.created_at;
  if (Date.now() > new Date(from).getTime() + flowStateExpirySeconds * 1000) {
    throw unprocessable("flow_state_expired", "invalid flow state, flow state has expired");
  }
  const expected =
    flow.code_challenge_method === "plain" ? verifier : createHash("sha256").update(verifier).digest("base64url");
  const a = Buffer.from(expected);
  const b = Buffer.from(flow.code_challenge);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw badRequest("bad_code_verifier", "code challenge does not match previously saved code verifier");
  }
  await db.query("delete from auth.flow_state where id = $1", [flow.id]);
  return { userId: flow.user_id, authenticationMethod: flow.authentication_method };
}
