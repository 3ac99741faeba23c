import type { StackConfig } from "./config/config.js";
import type { Database } from "./database/types.js";
import { createFunctionRegistry, type FunctionRegistry } from "./functions/registry.js";
import type { Keys } from "./keys/keys.js";
import type { Mailbox } from "./mail/mailbox.js";
import { createRealtime, type Realtime } from "./realtime/socket.js";

/** What a stack is made of: one database, one config, one set of keys, one mailbox. */
export interface StackParts {
  db: Database;
  config: StackConfig;
  keys: Keys;
  mailbox: Mailbox;
  /** The project's `supabase/` folder (config.toml, migrations, functions). */
  supabaseDir: string;
  /** Where storage keeps object bytes: `<dataDir>/storage`, or a temporary directory. */
  storageDir: string;
  /** The public URL clients use (`http://127.0.0.1:54321`). */
  url: string;
  /**
   * Strict mode (off by default, as hosted Supabase): realtime and storage refuse
   * what hosted Supabase lets through. See the README's "Strict mode (opt-in)".
   */
  strict: boolean;
  log(line: string): void;
}

/** Everything the routers share: the parts, and what runs beside them until `close()`. */
export interface Stack extends StackParts {
  /**
   * Roles the REST API found `authenticator` may switch to. Its grants are fixed
   * by the platform bootstrap, so a yes holds for the stack's life.
   */
  switchableRoles: Set<string>;
  /** The project's edge functions, imported on first call and reloaded when their folder changes. */
  functions: FunctionRegistry;
  /** Realtime's hub and WebSocket server: listening to the database from the start. */
  realtime: Realtime;
  /** Drops realtime's sockets and listeners and stops watching functions; the database is its opener's to close. */
  close(): Promise<void>;
}

/** A stack over its parts, with realtime started and functions ready to load. */
export function createStack(parts: StackParts): Stack {
  const switchableRoles = new Set<string>();
  const functions = createFunctionRegistry(`${parts.supabaseDir}/functions`, parts.log);
  const realtime = createRealtime(parts);
  // The parts object itself becomes the stack, so realtime sees what is set on it later (the URL).
  return Object.assign(parts, {
    switchableRoles,
    functions,
    realtime,
    async close() {
      await realtime.close();
      functions.close();
      switchableRoles.clear();
    },
  });
}
