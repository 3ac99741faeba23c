import type { Keys } from "./keys.js";

// The new-style keys the CLI hard-codes; each stands for one of the legacy JWTs.
export const publishableKey = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";
export const secretKey = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz";

/** Every API key the project accepts, mapped to the JWT a request with it acts as. */
export function apiKeyJwts(keys: Pick<Keys, "anonKey" | "serviceRoleKey">): Map<string, string> {
  return new Map([
    [keys.anonKey, keys.anonKey],
    [keys.serviceRoleKey, keys.serviceRoleKey],
    [publishableKey, keys.anonKey],
    [secretKey, keys.serviceRoleKey],
  ]);
}
