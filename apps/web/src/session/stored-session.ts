/**
 * Whether this browser holds a session, read from the cookies @supabase/ssr
 * keeps it in (`sb-<project>-auth-token`, or `.0`, `.1`… when chunked),
 * without loading the SDK: without one the visitor is signed out for sure.
 * The PKCE verifier cookie (`…-auth-token-code-verifier`) is not a session.
 */
const sessionCookie = /(?:^|;\s*)sb-[^=;]*-auth-token(?:\.\d+)?=/;

export function hasStoredSession(): boolean {
  return sessionCookie.test(document.cookie);
}
