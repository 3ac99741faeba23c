/**
 * Reading a signed link's end, kept apart from the storage calls so the query
 * layer, which every screen loads, does not pull in their validation.
 */

/** When a signed link stops working (ms since the epoch), read from its token's `exp`; null if it has none. */
export function signedUrlExpiresAt(url: string): number | null {
  try {
    const token = new URL(url).searchParams.get("token");
    const payload = token?.split(".")[1];
    if (!payload) return null;
    const json = atob(payload.replaceAll("-", "+").replaceAll("_", "/"));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}
