import type { StackConfig } from "./config/config.js";
import type { Database } from "./database/types.js";
import type { Keys } from "./keys/keys.js";
import type { Mailbox } from "./mail/mailbox.js";

/** Everything the routers share: one database, one config, one set of keys, one mailbox. */
export interface Stack {
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
  log(line: string): void;
}
