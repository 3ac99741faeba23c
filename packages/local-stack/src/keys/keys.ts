import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type CryptoKey,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";

/**
 * The project's keys as the current CLI has them: the JWT secret and the two
 * legacy API keys derived from it (HS256), and an asymmetric signing key for
 * the users' access tokens, whose public half `/.well-known/jwks.json` serves.
 */
export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The public JWKs of the signing keys, as GoTrue lists them (never the HS256 secret). */
  jwks: JWK[];
  /** Signs claims with the project secret (HS256): API keys, storage's signed URLs, tokens tools craft. */
  sign(claims: JWTPayload): Promise<string>;
  /** Signs a user's access token with the signing key (ES256 with its `kid`), as GoTrue does. */
  signAccessToken(claims: JWTPayload): Promise<string>;
  /**
   * Verifies signature and time claims (30 s leeway, as PostgREST): HS256 with
   * the secret, or an asymmetric token with the signing key its `kid` names.
   * Throws JwtError.
   */
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

const asymmetricAlgorithms = ["ES256", "RS256"];

interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/** A private JWK as `supabase gen signing-key` writes it, imported for signing and verifying. */
async function importSigningKey(jwk: JWK): Promise<SigningKey> {
  const alg = jwk.alg ?? (jwk.kty === "RSA" ? "RS256" : "ES256");
  if (!asymmetricAlgorithms.includes(alg) || !jwk.kid || !jwk.d) {
    throw new Error(`A signing key needs a kid, a private part and alg ES256 or RS256 (got ${alg})`);
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, key_ops: _ops, ext: _ext, ...rest } = jwk;
  const publicJwk: JWK = { ...rest, kid: jwk.kid, alg, use: "sig", key_ops: ["verify"] };
  return {
    kid: jwk.kid,
    alg,
    privateKey: (await importJWK({ ...jwk, key_ops: ["sign"] }, alg)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, alg)) as CryptoKey,
    publicJwk,
  };
}

/** A new ES256 key in the shape of the CLI's `signing_keys.json` entries. */
export async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { kty: "EC", kid: randomUUID(), use: "sig", key_ops: ["sign", "verify"], alg: "ES256", ext: true, ...jwk };
}

/**
 * The keys of a project. `signingKeys` are private JWKs (the first signs, all
 * verify), as in the CLI's `signing_keys_path`; without them one is made in memory.
 */
export async function createKeys(jwtSecret: string, signingKeys?: JWK[]): Promise<Keys> {
  const secret = new TextEncoder().encode(jwtSecret);
  const imported = await Promise.all(
    (signingKeys?.length ? signingKeys : [await generateSigningKey()]).map(importSigningKey),
  );
  const byKid = new Map(imported.map((key) => [key.kid, key]));
  const signer = imported[0] as SigningKey;
  const verified = new Map<string, JWTPayload>();
  const remember = (token: string, payload: JWTPayload) => {
    if (verified.size >= verifiedLimit) verified.delete(verified.keys().next().value as string);
    verified.set(token, payload);
  };
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
  const keyFor = (token: string) => {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new JwtError("JWSError JWSInvalidSignature");
    }
    if (header.alg === "HS256") return { key: secret, alg: "HS256" };
    if (!asymmetricAlgorithms.includes(header.alg ?? "")) throw new JwtError("JWSError JWSInvalidSignature");
    const key = typeof header.kid === "string" ? byKid.get(header.kid) : undefined;
    // PostgREST's answer when no key of its JWKS fits the token.
    if (!key || key.alg !== header.alg) throw new JwtError("No suitable key or wrong key type");
    return { key: key.publicKey, alg: key.alg };
  };
  return {
    jwtSecret,
    anonKey: await sign({ iss: "supabase-demo", role: "anon", exp: keyExpiry }),
    serviceRoleKey: await sign({ iss: "supabase-demo", role: "service_role", exp: keyExpiry }),
    jwks: imported.map((key) => key.publicJwk),
    sign,
    signAccessToken: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: "JWT" }).sign(signer.privateKey),
    async verify(token) {
      const cached = verified.get(token);
      if (cached && (cached.exp === undefined || Date.now() / 1000 <= cached.exp + clockTolerance)) return cached;
      const parts = token.split(".");
      if (parts.length !== 3) throw new JwtError(`Expected 3 parts in JWT; got ${parts.length}`);
      const { key, alg } = keyFor(token);
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [alg], clockTolerance });
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

/** A `signing_keys.json` as the CLI reads it: a JSON array of private JWKs. */
export async function readSigningKeys(file: string): Promise<JWK[]> {
  const keys = JSON.parse(await readFile(file, "utf8")) as unknown;
  if (!Array.isArray(keys) || keys.length === 0) throw new Error(`${file} must hold a JSON array of signing keys`);
  return keys as JWK[];
}

/**
 * The signing key of a data directory, kept in `<dataDir>/signing-keys.json`
 * beside the secret (generated on first use), so sessions outlive restarts.
 */
export async function loadOrCreateSigningKeys(dataDir: string): Promise<JWK[]> {
  const file = join(dataDir, "signing-keys.json");
  try {
    return await readSigningKeys(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dataDir, { recursive: true });
    const keys = [await generateSigningKey()];
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    return keys;
  }
}
