/**
 * What the browser tests and the benchmarks run against: one local stack over
 * the real `supabase/` project (PGlite in memory), and the app built for
 * production with that stack's URL and key, served by Vite's preview server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { liftAuthRateLimits, startStack } from "@engram/local-stack";
import { build, preview } from "vite";

export interface AppServer {
  appUrl: string;
  stackUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  close(): Promise<void>;
}

const appDir = fileURLToPath(new URL("../../", import.meta.url));
const supabaseDir = fileURLToPath(new URL("../../../../supabase/", import.meta.url));

/** A port nobody listens on, so the app's origin is known before the stack is configured with it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startAppServer(): Promise<AppServer> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const stack = await startStack({
    supabaseDir,
    dataDir: null,
    port: 0,
    configure: (config) => {
      // Email links must come back to this app, wherever it is served.
      config.auth.siteUrl = appUrl;
      config.auth.additionalRedirectUrls = [`${appUrl}/**`];
      // Every test signs up and in from 127.0.0.1; Supabase's per-IP limits would trip.
      liftAuthRateLimits(config);
      // The two-factor test signs in with a code seconds after turning two-factor on, which the
      // hook refuses as a reused code (for 60-90 s); its refusal is tested in the SDK and the stack.
      config.auth.hooks.mfaVerificationAttempt = null;
    },
  });

  try {
    const outDir = await mkdtemp(join(tmpdir(), "engram-web-"));
    const configFile = join(appDir, "vite.config.ts");
    // Variables already in the environment win over `.engram/.env`, so a running dev stack is not used.
    process.env.VITE_SUPABASE_URL = stack.url;
    process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
    await build({
      root: appDir,
      configFile,
      mode: "production",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true },
    });
    const server = await preview({
      root: appDir,
      configFile,
      logLevel: "warn",
      build: { outDir },
      preview: { host: "127.0.0.1", port, strictPort: true, open: false },
    });
    return {
      appUrl,
      stackUrl: stack.url,
      anonKey: stack.anonKey,
      serviceRoleKey: stack.serviceRoleKey,
      async close() {
        await server.close();
        await stack.close();
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}
