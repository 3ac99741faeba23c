import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { uniqueEmail } from "./helpers.js";

// The project's own signing_keys.json, as `supabase gen signing-key` writes it.
const keysFile = join(mkdtempSync(join(tmpdir(), "engram-signing-")), "signing_keys.json");
const kid = "5e0e6ad2-4d4e-4bd4-9c3c-2f0c0c3e7a11";
let signingKey: JWK;

beforeAll(async () => {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  signingKey = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig", key_ops: ["sign", "verify"] };
  writeFileSync(keysFile, JSON.stringify([signingKey]));
});

const stack = stackPerFile({
  configure: (config) => {
    config.auth.signingKeysPath = keysFile;
  },
});

describe("[auth] signing_keys_path", () => {
  it("signs access tokens with the project's key and serves its public half", async () => {
    const jwks = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.anonKey } });
    const { keys } = (await jwks.json()) as { keys: JWK[] };
    expect(keys).toEqual([
      { kty: "EC", crv: "P-256", x: signingKey.x, y: signingKey.y, kid, alg: "ES256", use: "sig", key_ops: ["verify"] },
    ]);

    const email = uniqueEmail("keys");
    const password = "correct horse battery";
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const client = clientFor(stack);
    const { data } = await client.auth.signInWithPassword({ email, password });
    const header = JSON.parse(Buffer.from(data.session?.access_token.split(".")[0] ?? "", "base64url").toString());
    expect(header).toMatchObject({ alg: "ES256", kid });
    expect((await client.auth.getClaims()).data?.claims.email).toBe(email);
    expect((await client.from("channels").select("id")).error).toBeNull();
  });
});
