/**
 * One private channel per topic and client, shared by every listener of the
 * topic. realtime-js keeps a single channel per topic, and each of Engram's
 * topics serves several listeners: `deck:<id>` the deck's room (presence,
 * editing signals) and its content changes, `user:<id>` the user's own
 * changes and the sign-out-everywhere signal. The channel opens with the
 * first listener and closes when the last one leaves.
 */
import type { RealtimeChannel } from "@supabase/supabase-js";
import { type EngramError, toEngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";
import { type ManagedChannel, openChannel } from "./channel.js";

export interface TopicListener {
  /** Handlers of broadcast events by name; payloads arrive unchecked. */
  broadcast?: Readonly<Record<string, (payload: unknown) => void>>;
  /** The presence list changed (deck topics only). */
  presence?: (channel: RealtimeChannel) => void;
  /** Each join of the channel; `rejoin` is false for the first this listener sees. */
  onJoin?: (channel: RealtimeChannel, rejoin: boolean) => void;
  /** The server refused or could not start the channel; never thrown. */
  onError?: ((error: EngramError) => void) | undefined;
}

export interface TopicHandle {
  /** The joined channel, or null while (re)joining or after a refusal. */
  joined(): RealtimeChannel | null;
  /** Detaches the listener; the last one closes the channel. Resolves once the server has been told. */
  release(): Promise<void>;
}

interface Attached {
  listener: TopicListener;
  joinedOnce: boolean;
}

/** Runs a listener's callback; one failing listener must not silence the others or break the channel. */
function safely(run: () => void) {
  try {
    run();
  } catch {
    // Swallowed on purpose.
  }
}

/** Only deck rooms use presence; the user's own channel is broadcast only (its policies allow nothing else). */
const hasPresence = (topic: string) => topic.startsWith("deck:");

class SharedTopic {
  readonly attached = new Set<Attached>();
  private managed: ManagedChannel | null = null;
  private opening: Promise<void>;
  private closed = false;

  constructor(
    private readonly supabase: EngramClient,
    readonly topic: string,
    /** This topic's previous channel on this client, still leaving. */
    previousClosed: Promise<void>,
  ) {
    this.opening = this.open(previousClosed);
  }

  private async open(previousClosed: Promise<void>) {
    await previousClosed;
    let presenceKey = "";
    try {
      const { data } = await this.supabase.auth.getSession();
      presenceKey = data.session?.user.id ?? "";
    } catch (error) {
      this.fail(toEngramError(error));
      return;
    }
    if (this.closed) return;
    this.managed = openChannel({
      supabase: this.supabase,
      topic: () => this.topic,
      config: {
        private: true,
        broadcast: { self: false, ack: true },
        ...(hasPresence(this.topic) ? { presence: { key: presenceKey, enabled: true } } : {}),
      },
      bind: (channel) => this.bind(channel),
      onJoin: (channel) => {
        for (const entry of [...this.attached]) this.joinedFor(entry, channel);
      },
      onError: (error) => this.fail(error),
    });
  }

  private bind(channel: RealtimeChannel) {
    channel.on("broadcast", { event: "*" }, (message: { event?: unknown; payload?: unknown }) => {
      const event = message.event;
      if (typeof event !== "string") return;
      for (const { listener } of [...this.attached]) {
        const handlers = listener.broadcast;
        const handler = handlers && Object.hasOwn(handlers, event) ? handlers[event] : undefined;
        if (handler) safely(() => handler(message.payload));
      }
    });
    if (hasPresence(this.topic)) {
      channel.on("presence", { event: "sync" }, () => {
        for (const { listener } of [...this.attached]) safely(() => listener.presence?.(channel));
      });
    }
  }

  private joinedFor(entry: Attached, channel: RealtimeChannel) {
    const rejoin = entry.joinedOnce;
    entry.joinedOnce = true;
    safely(() => entry.listener.onJoin?.(channel, rejoin));
  }

  private fail(error: EngramError) {
    for (const { listener } of [...this.attached]) safely(() => listener.onError?.(error));
  }

  joined(): RealtimeChannel | null {
    return this.managed?.joined() ?? null;
  }

  add(listener: TopicListener): Attached {
    const entry: Attached = { listener, joinedOnce: false };
    this.attached.add(entry);
    const channel = this.joined();
    // Already joined: the newcomer's first join is now (after its caller has its handle).
    if (channel) queueMicrotask(() => this.attached.has(entry) && this.joinedFor(entry, channel));
    // A channel the server refused stays shut; a new listener asks again (membership may have changed).
    else if (this.managed?.refused()) this.restart();
    return entry;
  }

  private restart() {
    const previous = this.managed;
    this.managed = null;
    const leaving = previous ? previous.close() : Promise.resolve();
    this.opening = this.opening.then(() => this.open(leaving));
  }

  async close() {
    this.closed = true;
    await this.opening;
    await this.managed?.close();
  }
}

interface ClientTopics {
  open: Map<string, SharedTopic>;
  closing: Map<string, Promise<void>>;
}
const topicsByClient = new WeakMap<EngramClient, ClientTopics>();

/** Attaches `listener` to the client's private channel of `topic`, opening it if none is open. */
export function attachToTopic(supabase: EngramClient, topic: string, listener: TopicListener): TopicHandle {
  const topics = topicsByClient.get(supabase) ?? { open: new Map(), closing: new Map() };
  topicsByClient.set(supabase, topics);
  let shared = topics.open.get(topic);
  if (!shared) {
    shared = new SharedTopic(supabase, topic, topics.closing.get(topic) ?? Promise.resolve());
    topics.open.set(topic, shared);
  }
  const current = shared;
  const entry = current.add(listener);
  let released = false;
  return {
    joined: () => (released ? null : current.joined()),
    async release() {
      if (released) return;
      released = true;
      current.attached.delete(entry);
      if (current.attached.size > 0) return;
      if (topics.open.get(topic) === current) topics.open.delete(topic);
      const closing = current.close();
      topics.closing.set(topic, closing);
      await closing;
      if (topics.closing.get(topic) === closing) topics.closing.delete(topic);
    },
  };
}
