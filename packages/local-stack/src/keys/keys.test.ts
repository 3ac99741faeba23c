import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, test } from "vitest";
import { createKeys, generateSigningKey, JwtError, loadOrCreateSecret, loadOrCreateSigningKeys } from "./keys.js";

describe("keys", () => {
  test("the same secret always gives the same anon and service_role keys, shaped like the CLI's", async () => {
    const [a, b] = await Promise.all([createKeys("s".repeat(40)), createKeys("s".repeat(40))]);
    expect(a.anonKey).toBe(b.anonKey);
    expect(decodeJwt(a.anonKey)).toEqual({ iss: "supabase-demo", role: "anon", exp: 1983812996 });
    expect(decodeJwt(a.serviceRoleKey)).toMatchObject({ role: "service_role" });
  });

  test("verifies its own tokens and refuses others with PostgREST's wording", async () => {
    const keys = await createKeys("first-secret-with-at-least-32-characters");
    const other = await createKeys("other-secret-with-at-least-32-characters");
    expect(await keys.verify(keys.anonKey)).toMatchObject({ role: "anon" });
    await expect(keys.verify(other.anonKey)).rejects.toThrow(JwtError);
    await expect(keys.verify("not-a-jwt")).rejects.toThrow("Expected 3 parts in JWT; got 1");
    const expired = await keys.sign({ role: "authenticated", exp: Math.floor(Date.now() / 1000) - 60 });
    await expect(keys.verify(expired)).rejects.toThrow("JWT expired");
  });

  test("signs access tokens ES256 with the signing key's kid and verifies them beside HS256", async () => {
    const keys = await createKeys("first-secret-with-at-least-32-characters");
    const token = await keys.signAccessToken({ sub: "someone", exp: Math.floor(Date.now() / 1000) + 60 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: keys.jwks[0]?.kid, typ: "JWT" });
    expect(await keys.verify(token)).toMatchObject({ sub: "someone" });
    expect(keys.jwks[0]).not.toHaveProperty("d");
    // Another project's key (same secret, other signing key) is not trusted.
    const other = await createKeys("first-secret-with-at-least-32-characters");
    await expect(other.verify(token)).rejects.toThrow("No suitable key or wrong key type");
  });

  test("signs with the first of the given keys, as the CLI's signing_keys.json", async () => {
    const given = [await generateSigningKey(), await generateSigningKey()];
    const keys = await createKeys("first-secret-with-at-least-32-characters", given);
    expect(keys.jwks.map((key) => key.kid)).toEqual(given.map((key) => key.kid));
    expect(decodeProtectedHeader(await keys.signAccessToken({ sub: "x" })).kid).toBe(given[0]?.kid);
  });

  test("a data directory keeps its signing key across restarts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "engram-keys-"));
    const first = await loadOrCreateSigningKeys(dir);
    expect(await loadOrCreateSigningKeys(dir)).toEqual(first);
    const token = await (await createKeys("s".repeat(40), first)).signAccessToken({ sub: "x" });
    expect(await (await createKeys("s".repeat(40), await loadOrCreateSigningKeys(dir))).verify(token)).toMatchObject({
      sub: "x",
    });
  });

  test("a data directory keeps its secret across restarts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "engram-keys-"));
    const first = await loadOrCreateSecret(dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await loadOrCreateSecret(dir)).toBe(first);
    expect((await readFile(join(dir, "jwt-secret"), "utf8")).trim()).toBe(first);
  });
});
