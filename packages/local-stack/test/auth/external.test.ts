import { AuthApiError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const stack = stackPerFile();

// An unsigned JWT carrying only an issuer: GoTrue reads Apple's and Azure's issuer before it verifies anything.
const tokenFrom = (iss: string) =>
  `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss })).toString("base64url")}.x`;

describe("sign-in through providers the project leaves off", () => {
  it("signInWithIdToken is GoTrue's provider_disabled, naming the provider's issuer", async () => {
    const client = clientFor(stack);
    const google = await client.auth.signInWithIdToken({ provider: "google", token: "header.payload.signature" });
    expect(google.error).toBeInstanceOf(AuthApiError);
    expect(google.error).toMatchObject({
      status: 400,
      code: "provider_disabled",
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    const apple = await client.auth.signInWithIdToken({
      provider: "apple",
      token: tokenFrom("https://appleid.apple.com"),
    });
    expect(apple.error).toMatchObject({
      code: "provider_disabled",
      message: 'Provider (issuer "https://appleid.apple.com") is not enabled',
    });
    expect(apple.data.session).toBeNull();
  });

  it("an ID token from an unknown OIDC provider is not allowed", async () => {
    const { error } = await clientFor(stack).auth.signInWithIdToken({ provider: "myidp", token: "a.b.c" });
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: 'Custom OIDC provider "myidp" not allowed',
    });
  });

  it("signInWithWeb3 is 422 web3_provider_disabled", async () => {
    const { data, error } = await clientFor(stack).auth.signInWithWeb3({
      chain: "solana",
      message: "example.com wants you to sign in with your Solana account",
      signature: new Uint8Array(64),
    });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 422, code: "web3_provider_disabled", message: "Web3 provider is disabled" });
    expect(data.session).toBeNull();
  });
});
