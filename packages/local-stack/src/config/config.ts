import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";
import type { z } from "zod";
import { configEnv } from "./dotenv.js";
import { type ConfigFile, configFile } from "./schema.js";
import { type Env, substituteEnv } from "./values.js";

export { parseByteSize } from "./units.js";

export interface ExternalProvider {
  enabled: boolean;
  clientId: string;
  secret: string;
  url: string;
  redirectUri: string;
  skipNonceCheck: boolean;
  emailOptional: boolean;
}

/**
 * A Postgres function GoTrue calls at a point of its flows (`uri =
 * "pg-functions://postgres/<schema>/<function>"`), as it names it: quoted.
 */
export interface PgFunctionHook {
  uri: string;
  /** `"<schema>"."<function>"`. */
  name: string;
}

/** The settings of `supabase/config.toml` the local stack honours, with the CLI's defaults. */
export interface StackConfig {
  api: {
    port: number;
    schemas: string[];
    extraSearchPath: string[];
    maxRows: number;
    /**
     * `[api] auto_expose_new_tables`: whether what migrations create in `public` is granted
     * to the API roles by default. Unset is true, as the CLI treats it.
     */
    autoExposeNewTables: boolean;
  };
  /** `[db] port`: where the stack serves its database over the Postgres wire protocol. */
  db: { port: number };
  auth: {
    siteUrl: string;
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    enableSignup: boolean;
    enableAnonymousSignIns: boolean;
    enableRefreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    minimumPasswordLength: number;
    /** `[auth] signing_keys_path`: a JWK set file, resolved against the supabase directory by loadConfig. */
    signingKeysPath?: string;
    email: {
      enableSignup: boolean;
      enableConfirmations: boolean;
      doubleConfirmChanges: boolean;
      maxFrequencySeconds: number;
      otpLength: number;
      otpExpiry: number;
    };
    rateLimit: {
      anonymousUsers: number;
      emailSent: number;
      signInSignUps: number;
      tokenRefresh: number;
      tokenVerifications: number;
      /** GoTrue's MFA challenge and verify limit (15 a minute); config.toml has no key for it. */
      mfaChallengeAndVerify: number;
    };
    /** `[auth.mfa]`: TOTP is off unless the project turns it on, as with the CLI. */
    mfa: { maxEnrolledFactors: number; totp: { enrollEnabled: boolean; verifyEnabled: boolean } };
    /** `[auth.external.<provider>]`, as written (secrets with `env(NAME)` read). */
    external: Record<string, ExternalProvider>;
    /** `[auth.web3.solana]`, `[auth.web3.ethereum]`. */
    web3: { solana: { enabled: boolean }; ethereum: { enabled: boolean } };
    /** `[auth.hook.*]` the stack runs, when enabled: the MFA verification attempt hook. */
    hooks: { mfaVerificationAttempt: PgFunctionHook | null };
    /** `[auth.oauth_server] enabled`: of the OAuth server, only its admin client API is served. */
    oauthServer?: { enabled: boolean };
  };
  inbucket: { port: number };
  storage: {
    fileSizeLimit: number;
    buckets: Record<string, { public: boolean; fileSizeLimit: number | null; allowedMimeTypes: string[] | null }>;
  };
  functions: Record<string, { verifyJwt: boolean; enabled: boolean }>;
  /** One line per setting the file turns on that the local stack does not serve. */
  notices: string[];
}

/**
 * Settings the CLI accepts that turn on something the local stack does not
 * serve: accepted, and named once at start so nobody expects them to work.
 */
const unservedSettings: { path: string; isSet: (file: ConfigFile) => boolean }[] = [
  { path: "auth.passkey", isSet: (file) => file.auth?.passkey?.enabled === true },
  { path: "auth.webauthn", isSet: (file) => file.auth?.webauthn !== undefined },
  { path: "db.ssl_enforcement", isSet: (file) => file.db?.ssl_enforcement?.enabled === true },
  { path: "db.pooler", isSet: (file) => file.db?.pooler?.enabled === true },
  { path: "experimental.pgdelta", isSet: (file) => file.experimental?.pgdelta?.enabled === true },
  {
    path: "auth.oauth_server (all but the admin client API)",
    isSet: (file) => file.auth?.oauth_server?.enabled === true,
  },
];

/** What the CLI checks beyond the keys' types when it loads the file (pkg/config's Validate). */
function crossCheck(file: ConfigFile): string[] {
  const { passkey, webauthn } = file.auth ?? {};
  if (!passkey?.enabled) return [];
  if (!webauthn) return ["config.toml: auth.webauthn is required when auth.passkey.enabled is true"];
  return [
    ...(webauthn.rp_id ? [] : ["config.toml: auth.webauthn.rp_id is required when auth.passkey.enabled is true"]),
    ...(webauthn.rp_origins?.length
      ? []
      : ["config.toml: auth.webauthn.rp_origins is required when auth.passkey.enabled is true"]),
  ];
}

/** A config.toml the CLI would refuse: every problem, each naming the key path. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    // An unknown-key message holds one line per key, each starting with the key.
    if (issue.code === "unrecognized_keys") {
      return issue.message.split("\n").map((line) => `config.toml: ${path ? `${path}.` : ""}${line}`);
    }
    return [`config.toml: ${path} ${issue.message}`];
  });
}

/** Parses config.toml; `env(NAME)` values read `env` (the process environment unless given). */
export function readConfig(toml: string, env: Env = process.env): StackConfig {
  let document: unknown;
  try {
    document = parse(toml);
  } catch (error) {
    throw new ConfigError([`config.toml: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const parsed = configFile.safeParse(substituteEnv(document, env));
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error));
  const problems = crossCheck(parsed.data);
  if (problems.length > 0) throw new ConfigError(problems);
  return toStackConfig(parsed.data);
}

/** The file's settings with the CLI's defaults for what it leaves out. */
function toStackConfig(file: ConfigFile): StackConfig {
  const { api = {}, db = {}, auth = {}, inbucket = {}, storage = {}, functions = {} } = file;
  const { email = {}, rate_limit: rate = {}, mfa = {}, web3 = {}, hook = {} } = auth;
  return {
    api: {
      port: api.port ?? 54321,
      schemas: api.schemas ?? ["public", "graphql_public"],
      extraSearchPath: api.extra_search_path ?? ["public", "extensions"],
      maxRows: api.max_rows ?? 1000,
      autoExposeNewTables: api.auto_expose_new_tables ?? true,
    },
    db: { port: db.port ?? 54322 },
    auth: {
      siteUrl: auth.site_url ?? "http://127.0.0.1:3000",
      additionalRedirectUrls: auth.additional_redirect_urls ?? ["https://127.0.0.1:3000"],
      jwtExpiry: auth.jwt_expiry ?? 3600,
      enableSignup: auth.enable_signup ?? true,
      enableAnonymousSignIns: auth.enable_anonymous_sign_ins ?? false,
      enableRefreshTokenRotation: auth.enable_refresh_token_rotation ?? true,
      refreshTokenReuseInterval: auth.refresh_token_reuse_interval ?? 10,
      minimumPasswordLength: auth.minimum_password_length ?? 6,
      ...(auth.signing_keys_path ? { signingKeysPath: auth.signing_keys_path } : {}),
      email: {
        enableSignup: email.enable_signup ?? true,
        enableConfirmations: email.enable_confirmations ?? false,
        doubleConfirmChanges: email.double_confirm_changes ?? true,
        maxFrequencySeconds: email.max_frequency ?? 1,
        otpLength: email.otp_length ?? 6,
        otpExpiry: email.otp_expiry ?? 3600,
      },
      rateLimit: {
        anonymousUsers: rate.anonymous_users ?? 30,
        emailSent: rate.email_sent ?? 2,
        signInSignUps: rate.sign_in_sign_ups ?? 30,
        tokenRefresh: rate.token_refresh ?? 150,
        tokenVerifications: rate.token_verifications ?? 30,
        mfaChallengeAndVerify: 15,
      },
      ...(auth.oauth_server?.enabled ? { oauthServer: { enabled: true } } : {}),
      mfa: {
        maxEnrolledFactors: mfa.max_enrolled_factors ?? 10,
        totp: { enrollEnabled: mfa.totp?.enroll_enabled ?? false, verifyEnabled: mfa.totp?.verify_enabled ?? false },
      },
      external: Object.fromEntries(
        Object.entries(auth.external ?? {}).map(([name, provider = {}]) => [
          name,
          {
            enabled: provider.enabled ?? false,
            clientId: provider.client_id ?? "",
            secret: provider.secret ?? "",
            url: provider.url ?? "",
            redirectUri: provider.redirect_uri ?? "",
            skipNonceCheck: provider.skip_nonce_check ?? false,
            emailOptional: provider.email_optional ?? false,
          },
        ]),
      ),
      web3: {
        solana: { enabled: web3.solana?.enabled ?? false },
        ethereum: { enabled: web3.ethereum?.enabled ?? false },
      },
      hooks: {
        mfaVerificationAttempt: enabledHook("mfa_verification_attempt", hook.mfa_verification_attempt),
      },
    },
    inbucket: { port: inbucket.port ?? 54324 },
    storage: {
      fileSizeLimit: storage.file_size_limit ?? 50 * 1024 ** 2,
      buckets: Object.fromEntries(
        Object.entries(storage.buckets ?? {}).map(([name, bucket = {}]) => [
          name,
          {
            public: bucket.public ?? false,
            fileSizeLimit: bucket.file_size_limit ?? null,
            allowedMimeTypes: bucket.allowed_mime_types ?? null,
          },
        ]),
      ),
    },
    functions: Object.fromEntries(
      Object.entries(functions).map(([name, fn = {}]) => [
        name,
        { verifyJwt: fn.verify_jwt ?? true, enabled: fn.enabled ?? true },
      ]),
    ),
    notices: unservedSettings
      .filter((setting) => setting.isSet(file))
      .map((setting) => `config.toml: ${setting.path} is accepted but not served locally`),
  };
}

// GoTrue's postgresNamesRegexp, for the schema and the function of a hook's URI.
const postgresName = /^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/;

/**
 * An enabled hook's function, checked as GoTrue checks the URI at start
 * (ValidateExtensibilityPoint). The stack runs Postgres functions only: an
 * HTTP hook would go unheard, so it is refused rather than ignored.
 */
function enabledHook(key: string, hook: { enabled?: boolean; uri?: string } = {}): PgFunctionHook | null {
  if (!hook.enabled) return null;
  const uri = hook.uri ?? "";
  const problem = (what: string) => new ConfigError([`config.toml: auth.hook.${key}.uri ${what}`]);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw problem(`is not a URI: ${JSON.stringify(uri)}`);
  }
  if (url.protocol !== "pg-functions:") {
    throw problem("must be pg-functions://postgres/<schema>/<function>: the local stack runs no HTTP hooks");
  }
  const [, schema = "", name = ""] = url.pathname.split("/");
  if (!postgresName.test(schema)) throw problem(`has an invalid schema name: ${JSON.stringify(schema)}`);
  if (!postgresName.test(name)) throw problem(`has an invalid function name: ${JSON.stringify(name)}`);
  return { uri, name: `"${schema}"."${name}"` };
}

/** Reads `<supabaseDir>/config.toml`; `env(NAME)` also reads the project's `.env` files, as the CLI does. */
export async function loadConfig(supabaseDir: string, env: Env = process.env): Promise<StackConfig> {
  const toml = await readFile(join(supabaseDir, "config.toml"), "utf8");
  const config = readConfig(toml, await configEnv(supabaseDir, env));
  // The CLI reads signing keys relative to the supabase directory.
  if (config.auth.signingKeysPath) config.auth.signingKeysPath = resolve(supabaseDir, config.auth.signingKeysPath);
  return config;
}

/**
 * Lifts auth's per-address rate limits and the resend interval, for test
 * suites that sign many users up and in from one address (a `configure` step).
 */
export function liftAuthRateLimits(config: StackConfig): void {
  config.auth.rateLimit = {
    anonymousUsers: 1e6,
    emailSent: 1e6,
    signInSignUps: 1e6,
    tokenRefresh: 1e6,
    tokenVerifications: 1e6,
    mfaChallengeAndVerify: 1e6,
  };
  config.auth.email.maxFrequencySeconds = 0;
}
