import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { loadConfig, parseByteSize, readConfig } from "./config.js";

describe("readConfig", () => {
  test("reads Engram's own supabase/config.toml", async () => {
    const config = await loadConfig(fileURLToPath(new URL("../../../../supabase/", import.meta.url)));
    expect(config.api.port).toBe(54321);
    expect(config.auth.siteUrl).toBe("http://127.0.0.1:3000");
    expect(config.auth.email.enableConfirmations).toBe(true);
    expect(config.auth.minimumPasswordLength).toBe(8);
    expect(config.storage.buckets.media).toMatchObject({ public: false, fileSizeLimit: 10 * 1024 ** 2 });
    expect(config.storage.buckets.avatars?.allowedMimeTypes).toContain("image/png");
  });

  test("falls back to the Supabase CLI's defaults for what the file leaves out", () => {
    const config = readConfig("");
    expect(config.api).toEqual({
      port: 54321,
      schemas: ["public", "graphql_public"],
      extraSearchPath: ["public", "extensions"],
      maxRows: 1000,
    });
    expect(config.auth.jwtExpiry).toBe(3600);
    expect(config.auth.email.enableConfirmations).toBe(false);
    expect(config.auth.refreshTokenReuseInterval).toBe(10);
    expect(config.storage.fileSizeLimit).toBe(50 * 1024 ** 2);
  });

  test("reads functions' verify_jwt, true unless said otherwise", () => {
    const config = readConfig("[functions.hello]\nverify_jwt = false\n[functions.other]\nenabled = true\n");
    expect(config.functions).toEqual({
      hello: { verifyJwt: false, enabled: true },
      other: { verifyJwt: true, enabled: true },
    });
  });

  test("refuses a file that is not TOML", () => {
    expect(() => readConfig("[api\nport = ")).toThrow();
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
