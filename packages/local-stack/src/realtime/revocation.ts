/**
 * Supabase checks a private channel only at join and token refresh; the stack also
 * re-checks every private channel after each committed change (a member removed,
 * a role changed), so access ends when the data says it does.
 */
import type { Database } from "../database/types.js";
import { channelPermissions, type Permissions } from "./changes.js";

export interface PrivateChannel {
  topic: string;
  private: boolean;
  role: string;
  claims: Record<string, unknown>;
}

export interface RevocationCheck {
  /** Asks for a re-check; requests while one runs coalesce into one more run. */
  request(): void;
  /** Whether a re-check is under way (private broadcasts wait for it). */
  running(): boolean;
  /** Settles when the current run, if any, is over. */
  settled(): Promise<void>;
}

export function createRevocationCheck<C extends PrivateChannel>(
  db: Database,
  options: {
    channels: () => Iterable<C>;
    /** Called per channel: its permissions now, or null when it may no longer read. */
    apply: (channel: C, permissions: Permissions | null) => void;
    stopped: () => boolean;
    log: (line: string) => void;
  },
): RevocationCheck {
  let current: Promise<void> = Promise.resolve();
  let isRunning = false;
  let wanted = false;

  /** One permission check per topic and identity, as at join. */
  async function checkAll() {
    const groups = new Map<string, C[]>();
    for (const channel of options.channels()) {
      if (!channel.private) continue;
      const key = JSON.stringify([channel.topic, channel.role, channel.claims]);
      groups.set(key, [...(groups.get(key) ?? []), channel]);
    }
    for (const channels of groups.values()) {
      const first = channels[0] as C;
      const permissions = await channelPermissions(db, first.topic.slice("realtime:".length), first.role, first.claims);
      const mayRead = permissions.readBroadcast || permissions.readPresence;
      for (const channel of channels) options.apply(channel, mayRead ? permissions : null);
    }
  }

  return {
    request() {
      wanted = true;
      if (isRunning) return;
      isRunning = true;
      current = (async () => {
        while (wanted && !options.stopped()) {
          wanted = false;
          await checkAll();
        }
      })()
        .catch((error) => options.log(`realtime: private channel re-check failed: ${String(error)}`))
        .finally(() => {
          isRunning = false;
        });
    },
    running: () => isRunning,
    settled: () => current,
  };
}
