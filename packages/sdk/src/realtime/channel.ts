/**
 * One realtime channel kept alive for as long as its subscriber wants it:
 * joined with the user's access token, re-created when the server closes it
 * (an expired or replaced token) once a fresh token arrives, and every join
 * after the first reported as a rejoin so the subscriber can resync.
 */
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel, type RealtimeChannelOptions } from "@supabase/supabase-js";
import { type EngramError, fromChannelError, toEngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";

export interface ChannelSpec {
  supabase: EngramClient;
  /** The channel's name for each (re)creation. */
  topic: () => string;
  config: NonNullable<RealtimeChannelOptions["config"]>;
  /** Adds the listeners to a fresh channel, before it subscribes. */
  bind: (channel: RealtimeChannel) => void;
  /** Each successful join; `rejoin` is false only for the first. */
  onJoin: (channel: RealtimeChannel, rejoin: boolean) => void;
  onError?: ((error: EngramError) => void) | undefined;
}

export interface ManagedChannel {
  /** The joined channel, or null while (re)joining or after a refusal. */
  joined(): RealtimeChannel | null;
  /** The server refused the join and no new token is awaited: nothing more will come. */
  refused(): boolean;
  close(): Promise<void>;
}

export function openChannel(spec: ChannelSpec): ManagedChannel {
  const { supabase } = spec;
  let closed = false;
  let channel: RealtimeChannel | null = null;
  let joined = false;
  let joinedOnce = false;
  // A failure is reported once, until the next successful join.
  let failing = false;
  // Closed by the server (token expired or replaced): join again with the next token.
  let waitingForToken = false;

  const report = (error: EngramError) => {
    if (failing || closed) return;
    failing = true;
    try {
      spec.onError?.(error);
    } catch {
      // A listener's own failure must not break the channel.
    }
  };

  // realtime-js keeps one channel per topic: a new one waits until the old one is gone.
  let removal: Promise<unknown> = Promise.resolve();
  const drop = (current: RealtimeChannel) => {
    if (channel === current) channel = null;
    joined = false;
    removal = supabase.removeChannel(current).catch(() => undefined);
  };

  const start = async () => {
    await removal;
    // The token realtime-js holds may still be the anon key right after sign-in.
    await supabase.realtime.setAuth();
    if (closed) return;
    const current = supabase.channel(spec.topic(), { config: spec.config });
    channel = current;
    spec.bind(current);
    const confirmJoin = () => {
      failing = false;
      joined = true;
      const rejoin = joinedOnce;
      joinedOnce = true;
      spec.onJoin(current, rejoin);
    };
    // Realtime says why it shuts a channel (a token expired, access revoked) in a system message first.
    current.on("system", {}, (message: { status?: string; message?: string }) => {
      if (channel !== current || closed) return;
      if (message.status === "error") report(fromChannelError(message.message));
    });
    current.subscribe((status, error) => {
      if (closed || channel !== current) return;
      switch (status) {
        case REALTIME_SUBSCRIBE_STATES.SUBSCRIBED:
          confirmJoin();
          return;
        case REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR: {
          joined = false;
          const mapped = fromChannelError(error);
          // A dropped socket: realtime-js reconnects and rejoins by itself.
          if (mapped.code === "network") {
            if (!joinedOnce) report(mapped);
            return;
          }
          report(mapped);
          // Refused: stop realtime-js from retrying with the same answer.
          drop(current);
          if (mapped.code === "auth/session-expired") waitingForToken = true;
          return;
        }
        case REALTIME_SUBSCRIBE_STATES.TIMED_OUT:
          joined = false;
          report(fromChannelError("timed out"));
          return;
        case REALTIME_SUBSCRIBE_STATES.CLOSED:
          // Not by us (we detach first): the server shut the channel.
          joined = false;
          channel = null;
          waitingForToken = true;
      }
    });
  };

  const begin = () => {
    start().catch((error: unknown) => report(toEngramError(error)));
  };

  const {
    data: { subscription },
  } = supabase.auth.onAuthStateChange((event) => {
    if ((event === "TOKEN_REFRESHED" || event === "SIGNED_IN") && waitingForToken && !closed) {
      waitingForToken = false;
      // Auth calls inside an auth listener would wait on the lock it holds.
      setTimeout(begin, 0);
    }
  });
  begin();

  return {
    joined: () => (joined ? channel : null),
    refused: () => !closed && channel === null && !waitingForToken && failing,
    async close() {
      if (closed) return;
      closed = true;
      subscription.unsubscribe();
      const current = channel;
      channel = null;
      joined = false;
      if (current) await supabase.removeChannel(current).catch(() => undefined);
    },
  };
}
