/**
 * The third-party grants of `/token` (`id_token`, `web3`). The CLI enables no
 * OAuth or Web3 provider unless config.toml does, and this stack serves none,
 * so these answer what GoTrue answers with them off, in its order of checks.
 */
import { badRequest, OAuthError, unprocessable } from "./errors.js";

const issuers: Record<string, string> = {
  google: "https://accounts.google.com",
  facebook: "https://www.facebook.com",
  kakao: "https://kauth.kakao.com",
  // Keycloak's issuer is its configured URL, empty while it is off.
  keycloak: "",
};

/** The `iss` of an unverified JWT, as GoTrue reads it to tell Apple's and Azure's issuers apart. */
function issuerOf(token: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { iss?: unknown };
    return typeof payload.iss === "string" ? payload.iss : null;
  } catch {
    return null;
  }
}

const disabled = (issuer: string) =>
  badRequest("provider_disabled", `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`);

/** `grant_type=id_token` (signInWithIdToken): GoTrue's IdTokenGrant up to its provider check. */
export function idTokenGrant(body: Record<string, unknown>): never {
  const str = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : "");
  const idToken = str("id_token");
  const provider = str("provider");
  const issuer = str("issuer");
  if (!idToken) throw new OAuthError("invalid request", "id_token required");
  if (!provider && (!str("client_id") || !issuer)) {
    throw new OAuthError("invalid request", "provider or client_id and issuer required");
  }
  if (provider === "apple" || issuer.startsWith("https://appleid.apple.com")) {
    const detected = issuerOf(idToken);
    if (detected === null)
      throw badRequest("validation_failed", "Unable to detect issuer in ID token for Apple provider");
    if (!detected.startsWith("https://appleid.apple.com")) {
      throw badRequest("validation_failed", "Detected ID token issuer is not an Apple ID token issuer");
    }
    if (issuer && issuer !== detected)
      throw badRequest("validation_failed", "Provided issuer does not match ID token issuer");
    throw disabled(detected);
  }
  if (provider === "azure") {
    const detected = issuerOf(idToken);
    if (detected === null)
      throw badRequest("validation_failed", "Unable to detect issuer in ID token for Azure provider");
    if (
      !detected.startsWith("https://login.microsoftonline.com/") &&
      !detected.startsWith("https://sts.windows.net/")
    ) {
      throw badRequest("validation_failed", "Detected ID token issuer is not an Azure ID token issuer");
    }
    if (issuer && issuer !== detected)
      throw badRequest("validation_failed", "Provided issuer does not match ID token issuer");
    throw disabled(detected);
  }
  const known = Object.entries(issuers).find(([name, url]) => provider === name || (url && issuer === url));
  if (known) throw disabled(known[1]);
  if (provider.startsWith("custom:")) throw badRequest("validation_failed", "Custom OAuth providers are disabled");
  throw badRequest("validation_failed", `Custom OIDC provider ${JSON.stringify(provider)} not allowed`);
}

/** `grant_type=web3` (signInWithWeb3) with both chains off, as the CLI leaves them. */
export function web3Grant(): never {
  throw unprocessable("web3_provider_disabled", "Web3 provider is disabled");
}
