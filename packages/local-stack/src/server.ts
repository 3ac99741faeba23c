import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { loadConfig, type StackConfig } from "./config/config.js";
import { type BackgroundWork, startBackgroundWork } from "./database/background-work.js";
import { prepareDatabase } from "./database/migrate.js";
import { openStackPglite, type PgliteDatabase } from "./database/pglite.js";
import type { Database } from "./database/types.js";
import { serveWireProtocol, type WireServer } from "./database/wire-server.js";
import { createKeys, loadOrCreateSecret, loadOrCreateSigningKeys, readSigningKeys } from "./keys/keys.js";
import { createMailbox } from "./mail/mailbox.js";
import { findSupabaseDir } from "./paths.js";
import { createStack, type Stack } from "./stack.js";

export interface StartOptions {
  /** The project's `supabase/` folder (found above the working directory by default). */
  supabaseDir?: string;
  /** Where PGlite and the JWT secret persist; in memory when null. */
  dataDir?: string | null;
  /** Use this PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /**
   * The embedded database, already opening at `<dataDir>/db` (or in memory without
   * `dataDir`) by `openStackPglite`: the CLI starts it before loading the rest
   * of the stack's code, so both happen at once. Opened here when absent.
   */
  embedded?: Promise<PgliteDatabase>;
  /** 0 picks a free port; default: `[api] port` of config.toml. */
  port?: number;
  /**
   * Serve the embedded database over the Postgres wire protocol on this port (0: a free
   * one; "config": `[db] port` of config.toml), as the CLI does. Not served when absent,
   * or with `databaseUrl`, whose server clients reach directly.
   */
  dbPort?: number | "config";
  hostname?: string;
  jwtSecret?: string;
  seed?: boolean | "first-run";
  /**
   * Grant what migrations create in `public` to the API roles by default, as older
   * hosted projects do. `false` behaves as a new hosted project: a table is denied
   * to the API until a migration grants it. Default: `[api] auto_expose_new_tables`
   * of config.toml, true when unset.
   */
  exposeNewTables?: boolean;
  /**
   * Strict mode: refuse what hosted Supabase lets through (realtime DELETE events and
   * private channels checked against RLS after every change, replay read under each
   * joiner's policies, postgres_changes refused on tables the role may not read,
   * uploads sniffed and SVG reduced, files served with nosniff and a sandbox policy).
   * Off by default: the stack then behaves as hosted Supabase does.
   */
  strict?: boolean;
  /** Adjusts the settings read from config.toml (tests use it to try other auth settings). */
  configure?: (config: StackConfig) => void;
  log?: (line: string) => void;
}

export interface RunningStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  mailboxUrl: string;
  /** Where the data lives: a directory, a URL without password, or "memory". */
  database: string;
  /** Whether the stack runs in strict mode (see StartOptions.strict). */
  strict: boolean;
  /**
   * The database's connection URL as `supabase status` prints it: the wire-protocol
   * server's, or `databaseUrl` without its password; absent when neither.
   */
  dbUrl?: string;
  stack: Stack;
  close(): Promise<void>;
}

/** Boots the database (platform, migrations, seed) and serves the Supabase APIs on one port. */
export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const supabaseDir = options.supabaseDir ?? findSupabaseDir();
  const dataDir = options.dataDir ?? null;
  const log = options.log ?? (() => {});
  // Opening PGlite takes most of a start: it begins first, on its own thread, and the rest is read meanwhile.
  const opening = options.databaseUrl ? null : (options.embedded ?? openStackPglite(dataDir));
  // Its failure is handled where it is awaited, after the config and keys are read.
  opening?.catch(() => undefined);
  try {
    return await startOn(opening, { ...options, supabaseDir, dataDir, log });
  } catch (error) {
    await opening?.then((db) => db.close()).catch(() => undefined);
    throw error;
  }
}

async function startOn(
  opening: Promise<PgliteDatabase> | null,
  options: StartOptions & { supabaseDir: string; dataDir: string | null; log: (line: string) => void },
): Promise<RunningStack> {
  const { supabaseDir, dataDir, log } = options;
  const config = await loadConfig(supabaseDir);
  options.configure?.(config);
  for (const notice of config.notices) log(notice);
  const jwtSecret =
    options.jwtSecret ?? (dataDir ? await loadOrCreateSecret(dataDir) : randomBytes(32).toString("base64url"));
  const signingKeys = config.auth.signingKeysPath
    ? await readSigningKeys(config.auth.signingKeysPath)
    : dataDir
      ? await loadOrCreateSigningKeys(dataDir)
      : undefined;
  const keys = await createKeys(jwtSecret, signingKeys);

  let db: Database;
  let location: string;
  let embedded: PgliteDatabase | null = null;
  if (!opening) {
    // Loaded only for a server: node-postgres is a tenth of the code an embedded start would load.
    const { openPostgres } = await import("./database/postgres.js");
    db = openPostgres({ connectionString: options.databaseUrl ?? "" });
    location = redactPassword(options.databaseUrl ?? "");
  } else {
    location = dataDir ? join(dataDir, "db") : "memory";
    embedded = await opening;
    db = embedded;
  }
  await prepareDatabase(db, {
    supabaseDir,
    seed: options.seed ?? "first-run",
    log,
    exposeNewTables: options.exposeNewTables ?? config.api.autoExposeNewTables,
  });

  // PGlite has no autovacuum or checkpointer: the stack keeps its statistics and its WAL as a server's would.
  const backgroundWork: BackgroundWork | null = embedded ? startBackgroundWork(embedded) : null;

  const hostname = options.hostname ?? "127.0.0.1";
  let wire: WireServer | null = null;
  if (embedded && options.dbPort !== undefined) {
    const port = options.dbPort === "config" ? config.db.port : options.dbPort;
    wire = await serveWireProtocol({ pglite: embedded.pglite, session: embedded.session, port, host: hostname }).catch(
      async (error: Error) => {
        await backgroundWork?.stop();
        await db.close().catch(() => undefined);
        throw error;
      },
    );
  }
  const storageDir = dataDir ? join(dataDir, "storage") : await mkdtemp(join(tmpdir(), "engram-storage-"));
  const stack = createStack({
    db,
    config,
    keys,
    mailbox: createMailbox(log),
    supabaseDir,
    storageDir,
    url: "",
    strict: options.strict ?? false,
    log,
  });
  const app = createApp(stack);
  const port = options.port ?? config.api.port;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname, websocket: { server: stack.realtime.sockets } }, () =>
      resolve(started),
    );
    started.once("error", (error: NodeJS.ErrnoException) => {
      stack
        .close()
        .catch(() => undefined)
        .then(() => backgroundWork?.stop())
        .then(() => Promise.all([wire?.close(), db.close()]))
        .catch(() => undefined);
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} on ${hostname} is in use: is the stack already running? (pnpm stack status)`)
          : error,
      );
    });
  });
  stack.url = `http://${hostname}:${(server.address() as AddressInfo).port}`;

  return {
    url: stack.url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    jwtSecret,
    mailboxUrl: `${stack.url}/mailbox`,
    database: location,
    strict: stack.strict,
    ...(wire ? { dbUrl: wire.url } : options.databaseUrl ? { dbUrl: location } : {}),
    stack,
    async close() {
      await stack.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await wire?.close();
      await backgroundWork?.stop();
      await db.close();
      if (!dataDir) await rm(storageDir, { recursive: true, force: true });
    },
  };
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "****";
  return parsed.toString();
}
