/** Supabase's auth rate limits (config `[auth.rate_limit]`), counted in memory per client IP. */
import { AuthError } from "./errors.js";

export type Limit = "emailSent" | "signInSignUps" | "tokenRefresh" | "tokenVerifications" | "anonymousUsers";

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
}

export function createRateLimiter(limits: () => Record<Limit, number>): RateLimiter {
  const events = new Map<string, number[]>();
  return {
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
