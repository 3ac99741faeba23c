/** Supabase's auth rate limits (config `[auth.rate_limit]`), counted in memory per client IP. */
import { AuthError } from "./errors.js";

export type Limit = "emailSent" | "signInSignUps" | "tokenRefresh" | "tokenVerifications" | "anonymousUsers";

/** GoTrue's two MFA limiters, one for challenges and one for verifications, shared by every factor. */
export type FactorLimit = "mfaChallenge" | "mfaVerify";

export interface Limits extends Record<Limit, number> {
  /** GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: requests a minute per address for each of the two. */
  mfaChallengeAndVerify: number;
}

// GoTrue's MFA limiters (tollbooth token buckets): 30 requests at once, refilled at the
// configured rate; an address's bucket is forgotten, so full again, a minute after it was made.
const factorBurst = 30;
const factorBucketLifetime = 60_000;

// email_sent and anonymous_users count per hour; the others per 5 minutes, as Supabase documents them.
const windows: Record<Limit, number> = {
  emailSent: 3600_000,
  anonymousUsers: 3600_000,
  signInSignUps: 300_000,
  tokenRefresh: 300_000,
  tokenVerifications: 300_000,
};

export interface RateLimiter {
  /** Counts one event; throws 429 when over the limit. */
  hit(limit: Limit, key: string): void;
  /** Takes one request from an MFA bucket; throws 429 when it is empty. */
  take(limit: FactorLimit, key: string): void;
}

export function createRateLimiter(limits: () => Limits): RateLimiter {
  const events = new Map<string, number[]>();
  const buckets = new Map<string, { tokens: number; at: number; created: number }>();
  return {
    take(limit, key) {
      const now = Date.now();
      const id = `${limit}:${key}`;
      let bucket = buckets.get(id);
      if (!bucket || now - bucket.created >= factorBucketLifetime) {
        bucket = { tokens: factorBurst, at: now, created: now };
        buckets.set(id, bucket);
      }
      const perMs = limits().mfaChallengeAndVerify / 60_000;
      bucket.tokens = Math.min(factorBurst, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
      if (bucket.tokens < 1) throw new AuthError(429, "over_request_rate_limit", "Request rate limit reached");
      bucket.tokens -= 1;
    },
    hit(limit, key) {
      const now = Date.now();
      const id = `${limit}:${limit === "emailSent" ? "" : key}`;
      const recent = (events.get(id) ?? []).filter((at) => at > now - windows[limit]);
      if (recent.length >= limits()[limit]) {
        events.set(id, recent);
        throw limit === "emailSent"
          ? new AuthError(429, "over_email_send_rate_limit", "email rate limit exceeded")
          : new AuthError(429, "over_request_rate_limit", "Request rate limit reached");
      }
      recent.push(now);
      events.set(id, recent);
    },
  };
}
