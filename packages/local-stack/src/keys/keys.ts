import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type JWTPayload, jwtVerify, SignJWT } from "jose";

/** The project's JWT secret and the two API keys derived from it (legacy HS256 keys, as the CLI issues). */
export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Signs claims with the project secret (HS256). */
  sign(claims: JWTPayload): Promise<string>;
  /** Verifies signature and time claims (30 s leeway, as PostgREST); throws JwtError. */
  verify(token: string): Promise<JWTPayload>;
}

export class JwtError extends Error {
  override readonly name = "JwtError";
}

// The CLI's keys: no iat, expiring 2032-11-11, so the same secret always gives the same keys.
const keyExpiry = 1983812996;

// PostgREST's leeway on exp/nbf/iat.
const clockTolerance = 30;
// Verified tokens are remembered until they expire: every request of a
// session carries the same token, and checking its signature each time costs
// more than the rest of the gateway.
const verifiedLimit = 1000;

export async function createKeys(jwtSecret: string): Promise<Keys> {
  const secret = new TextEncoder().encode(jwtSecret);
  const verified = new Map<string, JWTPayload>();
  const remember = (token: string, payload: JWTPayload) => {
    if (verified.size >= verifiedLimit) verified.delete(verified.keys().next().value as string);
    verified.set(token, payload);
  };
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
  return {
    jwtSecret,
    anonKey: await sign({ iss: "supabase-demo", role: "anon", exp: keyExpiry }),
    serviceRoleKey: await sign({ iss: "supabase-demo", role: "service_role", exp: keyExpiry }),
    sign,
    async verify(token) {
      const cached = verified.get(token);
      if (cached && (cached.exp === undefined || Date.now() / 1000 <= cached.exp + clockTolerance)) return cached;
      const parts = token.split(".");
      if (parts.length !== 3) throw new JwtError(`Expected 3 parts in JWT; got ${parts.length}`);
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"], clockTolerance });
        remember(token, payload);
        return payload;
      } catch (error) {
        // PostgREST's wording, which clients and people recognise.
        const code = (error as { code?: string }).code;
        if (code === "ERR_JWT_EXPIRED") throw new JwtError("JWT expired");
        if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") throw new JwtError("JWT claims invalid");
        throw new JwtError("JWSError JWSInvalidSignature");
      }
    },
  };
}

/**
 * The secret of a data directory: generated on first use and kept in
 * `<dataDir>/jwt-secret`, so keys stay valid across restarts.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, "jwt-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
