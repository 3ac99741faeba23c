import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "smol-toml";

/** The settings of `supabase/config.toml` the local stack honours, with the CLI's defaults. */
export interface StackConfig {
  api: { port: number; schemas: string[]; extraSearchPath: string[]; maxRows: number };
  auth: {
    siteUrl: string;
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    enableSignup: boolean;
    enableRefreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    minimumPasswordLength: number;
    email: {
      enableSignup: boolean;
      enableConfirmations: boolean;
      doubleConfirmChanges: boolean;
      maxFrequencySeconds: number;
      otpLength: number;
      otpExpiry: number;
    };
    rateLimit: { emailSent: number; signInSignUps: number; tokenRefresh: number; tokenVerifications: number };
    /** `[auth.mfa]`: TOTP is off unless the project turns it on, as with the CLI. */
    mfa: { maxEnrolledFactors: number; totp: { enrollEnabled: boolean; verifyEnabled: boolean } };
  };
  inbucket: { port: number };
  storage: {
    fileSizeLimit: number;
    buckets: Record<string, { public: boolean; fileSizeLimit: number | null; allowedMimeTypes: string[] | null }>;
  };
  functions: Record<string, { verifyJwt: boolean; enabled: boolean }>;
}

type Table = Record<string, unknown>;

const table = (value: unknown): Table =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};
const str = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
const num = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
const bool = (value: unknown, fallback: boolean) => (typeof value === "boolean" ? value : fallback);
const strings = (value: unknown, fallback: string[]) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : fallback;

/** "50MiB", "10MB", "1GB" or a number of bytes, as the CLI accepts them. */
export function parseByteSize(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*$/i.exec(value);
  if (!match) throw new Error(`Cannot read the size "${value}"`);
  const units: Record<string, number> = {
    b: 1,
    kb: 1e3,
    mb: 1e6,
    gb: 1e9,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
  };
  return Math.round(Number(match[1]) * (units[(match[2] ?? "b").toLowerCase()] ?? 1));
}

/** "1s", "1m", "2h" as seconds. */
function parseDuration(value: unknown, fallback: number): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return fallback;
  const match = /^(\d+)(s|m|h)$/.exec(value.trim());
  if (!match) return fallback;
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as "s" | "m" | "h"];
}

export function readConfig(toml: string): StackConfig {
  const root = table(parse(toml));
  const api = table(root.api);
  const auth = table(root.auth);
  const email = table(auth.email);
  const rate = table(auth.rate_limit);
  const mfa = table(auth.mfa);
  const totp = table(mfa.totp);
  const storage = table(root.storage);
  const buckets = table(storage.buckets);
  const functions = table(root.functions);
  return {
    api: {
      port: num(api.port, 54321),
      schemas: strings(api.schemas, ["public", "graphql_public"]),
      extraSearchPath: strings(api.extra_search_path, ["public", "extensions"]),
      maxRows: num(api.max_rows, 1000),
    },
    auth: {
      siteUrl: str(auth.site_url, "http://127.0.0.1:3000"),
      additionalRedirectUrls: strings(auth.additional_redirect_urls, ["https://127.0.0.1:3000"]),
      jwtExpiry: num(auth.jwt_expiry, 3600),
      enableSignup: bool(auth.enable_signup, true),
      enableRefreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
      refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
      minimumPasswordLength: num(auth.minimum_password_length, 6),
      email: {
        enableSignup: bool(email.enable_signup, true),
        enableConfirmations: bool(email.enable_confirmations, false),
        doubleConfirmChanges: bool(email.double_confirm_changes, true),
        maxFrequencySeconds: parseDuration(email.max_frequency, 1),
        otpLength: num(email.otp_length, 6),
        otpExpiry: num(email.otp_expiry, 3600),
      },
      rateLimit: {
        emailSent: num(rate.email_sent, 2),
        signInSignUps: num(rate.sign_in_sign_ups, 30),
        tokenRefresh: num(rate.token_refresh, 150),
        tokenVerifications: num(rate.token_verifications, 30),
      },
      mfa: {
        maxEnrolledFactors: num(mfa.max_enrolled_factors, 10),
        totp: { enrollEnabled: bool(totp.enroll_enabled, false), verifyEnabled: bool(totp.verify_enabled, false) },
      },
    },
    inbucket: { port: num(table(root.inbucket).port, 54324) },
    storage: {
      fileSizeLimit: parseByteSize(storage.file_size_limit) ?? 50 * 1024 ** 2,
      buckets: Object.fromEntries(
        Object.entries(buckets).map(([name, raw]) => {
          const bucket = table(raw);
          return [
            name,
            {
              public: bool(bucket.public, false),
              fileSizeLimit: parseByteSize(bucket.file_size_limit),
              allowedMimeTypes: Array.isArray(bucket.allowed_mime_types)
                ? strings(bucket.allowed_mime_types, [])
                : null,
            },
          ];
        }),
      ),
    },
    functions: Object.fromEntries(
      Object.entries(functions).map(([name, raw]) => {
        const fn = table(raw);
        return [name, { verifyJwt: bool(fn.verify_jwt, true), enabled: bool(fn.enabled, true) }];
      }),
    ),
  };
}

export async function loadConfig(supabaseDir: string): Promise<StackConfig> {
  return readConfig(await readFile(join(supabaseDir, "config.toml"), "utf8"));
}

/**
 * Lifts auth's per-address rate limits and the resend interval, for test
 * suites that sign many users up and in from one address (a `configure` step).
 */
export function liftAuthRateLimits(config: StackConfig): void {
  config.auth.rateLimit = { emailSent: 1e6, signInSignUps: 1e6, tokenRefresh: 1e6, tokenVerifications: 1e6 };
  config.auth.email.maxFrequencySeconds = 0;
}
