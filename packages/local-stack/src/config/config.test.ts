import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig, parseByteSize, readConfig } from "./config.js";

const problemsOf = (toml: string, env: Record<string, string> = {}): string[] => {
  try {
    readConfig(toml, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("the file was accepted");
};

describe("readConfig", () => {
  test("reads Engram's own supabase/config.toml", async () => {
    const config = await loadConfig(fileURLToPath(new URL("../../../../supabase/", import.meta.url)));
    expect(config.api.port).toBe(54321);
    expect(config.auth.siteUrl).toBe("http://127.0.0.1:3000");
    expect(config.auth.email.enableConfirmations).toBe(true);
    expect(config.auth.minimumPasswordLength).toBe(8);
    expect(config.storage.buckets.media).toMatchObject({ public: false, fileSizeLimit: 10 * 1024 ** 2 });
    expect(config.storage.buckets.avatars?.allowedMimeTypes).toContain("image/png");
    expect(config.db.port).toBe(54322);
    expect(config.auth.enableAnonymousSignIns).toBe(false);
    expect(config.functions["delete-account"]).toEqual({ verifyJwt: true, enabled: true });
    expect(config.auth.hooks.mfaVerificationAttempt?.name).toBe('"private"."reject_reused_totp_code"');
  });

  test("reads the conformance fixture's config.toml", async () => {
    const config = await loadConfig(fileURLToPath(new URL("../../test/fixtures/supabase/", import.meta.url)));
    expect(config.auth.rateLimit.signInSignUps).toBe(1000);
    expect(config.auth.email.enableConfirmations).toBe(true);
    expect(config.functions.open).toEqual({ verifyJwt: false, enabled: true });
  });

  test("accepts every setting the CLI knows, including the ones the stack does not act on", () => {
    const config = readConfig(allSettings, {});
    expect(config.auth.rateLimit.anonymousUsers).toBe(30);
    expect(config.auth.external.apple).toMatchObject({
      enabled: false,
      secret: "env(SUPABASE_AUTH_EXTERNAL_APPLE_SECRET)",
    });
    expect(config.auth.web3.solana.enabled).toBe(false);
    expect(config.auth.email.maxFrequencySeconds).toBe(1);
  });

  test("reads the settings added for the database port, anonymous sign-ins and signing keys", () => {
    const config = readConfig(
      [
        "[db]\nport = 6543",
        '[auth]\nenable_anonymous_sign_ins = true\nsigning_keys_path = "./signing_keys.json"',
        "[auth.rate_limit]\nanonymous_users = 5",
        '[auth.external.github]\nenabled = true\nclient_id = "abc"',
        "[auth.web3.ethereum]\nenabled = true",
      ].join("\n"),
    );
    expect(config.db.port).toBe(6543);
    expect(config.auth.enableAnonymousSignIns).toBe(true);
    expect(config.auth.rateLimit.anonymousUsers).toBe(5);
    expect(config.auth.signingKeysPath).toBe("./signing_keys.json");
    expect(config.auth.external.github).toMatchObject({ enabled: true, clientId: "abc", skipNonceCheck: false });
    expect(config.auth.web3).toEqual({ solana: { enabled: false }, ethereum: { enabled: true } });
  });

  test("refuses a misspelt key, naming its path and the setting meant", () => {
    expect(problemsOf("[auth.email]\nenable_confirmation = true\n")).toEqual([
      "config.toml: auth.email.enable_confirmation is not a setting (did you mean enable_confirmations?)",
    ]);
    expect(problemsOf('projectid = "x"\n[storage.buckets.media]\npublc = true\n')).toEqual([
      "config.toml: storage.buckets.media.publc is not a setting (did you mean public?)",
      "config.toml: projectid is not a setting (did you mean project_id?)",
    ]);
    expect(problemsOf("[nonsense]\nx = 1\n")).toEqual(["config.toml: nonsense is not a setting"]);
  });

  test("refuses a value of the wrong type, naming its path", () => {
    expect(problemsOf('[api]\nport = "54321"\n')).toEqual([
      'config.toml: api.port must be a whole number, not "54321"',
    ]);
    expect(problemsOf('[auth]\nenable_signup = "yes"\n')).toEqual([
      'config.toml: auth.enable_signup must be true or false, not "yes"',
    ]);
    expect(problemsOf('[api]\nport = 70000\nschemas = "public"\n')).toEqual([
      "config.toml: api.port must be a whole number up to 65535, not 70000",
      'config.toml: api.schemas must be a list of strings, not "public"',
    ]);
    expect(problemsOf('[storage]\nfile_size_limit = "lots"\n')).toEqual([
      'config.toml: storage.file_size_limit must be a size such as "50MiB", not "lots"',
    ]);
    expect(problemsOf('[auth.email]\nmax_frequency = "soon"\n')).toEqual([
      'config.toml: auth.email.max_frequency must be a duration such as "1s", not "soon"',
    ]);
    expect(problemsOf('[edge_runtime]\npolicy = "always"\n')).toEqual([
      'config.toml: edge_runtime.policy must be one of "per_worker", "oneshot", not "always"',
    ]);
    expect(problemsOf("auth = 3\n")).toEqual(["config.toml: auth must be a table, not 3"]);
  });

  test("reads env(NAME) from the environment as the CLI does, converting it to the setting's type", () => {
    const toml = [
      'project_id = "env(PROJECT)"',
      '[api]\nport = "env(API_PORT)"',
      '[auth]\nsite_url = "env(SITE_URL)"\nenable_signup = "env(SIGNUP)"',
      '[auth.external.google]\nsecret = "env(GOOGLE_SECRET)"',
    ].join("\n");
    const config = readConfig(toml, { API_PORT: "6000", SITE_URL: "https://app.test", SIGNUP: "false" });
    expect(config.api.port).toBe(6000);
    expect(config.auth.siteUrl).toBe("https://app.test");
    expect(config.auth.enableSignup).toBe(false);
    // An unset variable leaves the reference as written.
    expect(config.auth.external.google?.secret).toBe("env(GOOGLE_SECRET)");
    expect(problemsOf('[api]\nport = "env(API_PORT)"\n', { API_PORT: "many" })).toEqual([
      'config.toml: api.port must be a whole number, not "many"',
    ]);
  });

  test("falls back to the Supabase CLI's defaults for what the file leaves out", () => {
    const config = readConfig("");
    expect(config.api).toEqual({
      port: 54321,
      schemas: ["public", "graphql_public"],
      extraSearchPath: ["public", "extensions"],
      maxRows: 1000,
      autoExposeNewTables: true,
    });
    expect(config.notices).toEqual([]);
    expect(config.auth.jwtExpiry).toBe(3600);
    expect(config.auth.email.enableConfirmations).toBe(false);
    expect(config.auth.refreshTokenReuseInterval).toBe(10);
    expect(config.storage.fileSizeLimit).toBe(50 * 1024 ** 2);
    expect(config.db.port).toBe(54322);
    expect(config.auth.enableAnonymousSignIns).toBe(false);
    expect(config.auth.rateLimit.anonymousUsers).toBe(30);
    expect(config.auth.signingKeysPath).toBeUndefined();
    expect(config.auth.external).toEqual({});
  });

  test("reads sizes and durations as the CLI does", () => {
    const config = readConfig(
      '[storage]\nfile_size_limit = "5MB"\n[storage.buckets.a]\nfile_size_limit = 1024\n[auth.email]\nmax_frequency = "1m30s"\n',
    );
    expect(config.storage.fileSizeLimit).toBe(5 * 1024 ** 2);
    expect(config.storage.buckets.a?.fileSizeLimit).toBe(1024);
    expect(config.auth.email.maxFrequencySeconds).toBe(90);
  });

  test("reads functions' verify_jwt, true unless said otherwise", () => {
    const config = readConfig("[functions.hello]\nverify_jwt = false\n[functions.other]\nenabled = true\n");
    expect(config.functions).toEqual({
      hello: { verifyJwt: false, enabled: true },
      other: { verifyJwt: true, enabled: true },
    });
  });

  test("reads the MFA verification attempt hook's function as GoTrue names it, when enabled", () => {
    const hook = (uri: string, enabled = true) =>
      readConfig(`[auth.hook.mfa_verification_attempt]\nenabled = ${enabled}\nuri = "${uri}"\n`).auth.hooks
        .mfaVerificationAttempt;
    expect(hook("pg-functions://postgres/private/reject_reused_totp_code")).toEqual({
      uri: "pg-functions://postgres/private/reject_reused_totp_code",
      name: '"private"."reject_reused_totp_code"',
    });
    expect(hook("pg-functions://postgres/public/mfa_attempt", false)).toBeNull();
    expect(readConfig("").auth.hooks.mfaVerificationAttempt).toBeNull();
  });

  test("refuses an enabled hook it cannot run: an HTTP hook, or a URI without a schema and a function", () => {
    const problems = (uri: string) =>
      problemsOf(`[auth.hook.mfa_verification_attempt]\nenabled = true\nuri = "${uri}"\n`);
    expect(problems("https://hooks.example.com/mfa")).toEqual([
      "config.toml: auth.hook.mfa_verification_attempt.uri must be pg-functions://postgres/<schema>/<function>: the local stack runs no HTTP hooks",
    ]);
    expect(problems("pg-functions://postgres/public")).toEqual([
      'config.toml: auth.hook.mfa_verification_attempt.uri has an invalid function name: ""',
    ]);
    expect(problems("pg-functions://postgres/my-schema/fn")).toEqual([
      'config.toml: auth.hook.mfa_verification_attempt.uri has an invalid schema name: "my-schema"',
    ]);
  });

  test("refuses a file that is not TOML", () => {
    expect(() => readConfig("[api\nport = ")).toThrow(ConfigError);
  });
});

/** A config.toml that sets every setting the Supabase CLI knows. */
const allSettings = readFileSync(new URL("./all-settings.toml", import.meta.url), "utf8");

describe("loadConfig", () => {
  test("env(NAME) also reads the project's .env files, the environment and the nearer file winning", async () => {
    const project = await mkdtemp(join(tmpdir(), "config-env-"));
    const supabaseDir = join(project, "supabase");
    await mkdir(supabaseDir);
    await writeFile(
      join(supabaseDir, "config.toml"),
      '[auth]\nsite_url = "env(SITE_URL)"\n[auth.external.github]\nclient_id = "env(GITHUB_ID)"\nsecret = "env(GITHUB_SECRET)"\n',
    );
    await writeFile(join(supabaseDir, ".env"), "GITHUB_ID=from-supabase-dir\nSITE_URL=http://from-file.test\n");
    await writeFile(join(supabaseDir, ".env.local"), "GITHUB_SECRET=from-local-file\n");
    await writeFile(join(project, ".env"), "GITHUB_ID=from-project-dir\nGITHUB_SECRET=from-project-dir\n");
    try {
      const config = await loadConfig(supabaseDir, { SITE_URL: "http://from-environment.test" });
      expect(config.auth.siteUrl).toBe("http://from-environment.test");
      expect(config.auth.external.github).toMatchObject({ clientId: "from-supabase-dir", secret: "from-local-file" });
      // The "test" environment skips .env.local, as the CLI does.
      const testing = await loadConfig(supabaseDir, { SUPABASE_ENV: "test" });
      expect(testing.auth.external.github?.secret).toBe("from-project-dir");
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe("parseByteSize", () => {
  test("reads the units the CLI accepts", () => {
    expect(["50MiB", "10MB", "2 KiB", "1GB", "512B", 2048].map(parseByteSize)).toEqual([
      50 * 1024 ** 2,
      10_000_000,
      2048,
      1_000_000_000,
      512,
      2048,
    ]);
  });

  test("refuses a size it cannot read", () => {
    expect(() => parseByteSize("lots")).toThrow(/lots/);
  });
});
