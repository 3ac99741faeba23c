/**
 * Who is in a deck and what they do: presence and "editing note N" broadcasts
 * on the private channel `deck:<id>`, whose realtime.messages policies decide
 * who may join. One room per deck and client, on the deck's shared channel
 * (realtime/topics.ts, which also carries the deck's content changes); every
 * `joinDeck` on it is a handle sharing it.
 */
import type { RealtimeChannel } from "@supabase/supabase-js";
import { type EngramError, fromSendStatus, toEngramError } from "../errors.js";
import { currentUserId } from "../session.js";
import type { EngramClient } from "../supabase-client.js";
import { attachToTopic, type TopicHandle } from "./topics.js";

export type DeckActivity = "viewing" | "editing" | "studying";

/** One person in the deck, however many tabs or devices they have open in it. */
export interface DeckPresence {
  userId: string;
  displayName: string | null;
  avatarPath: string | null;
  activity: DeckActivity;
  /** The note they have open in the editor, if any. */
  editingNoteId: string | null;
  /** The field of that note their cursor is in, by the note's field name, if any. */
  editingField: string | null;
  /** When they last changed what they do (ISO time). */
  since: string;
  /** Their open connections to this deck. */
  connections: number;
}

/** A member started or stopped editing a note. */
export interface EditingSignal {
  noteId: string;
  userId: string;
  displayName: string | null;
  editing: boolean;
}

export interface JoinDeckOptions {
  /** What the user does here; when another handle on this client already joined, left out keeps its activity. */
  activity?: DeckActivity;
  /** Shown to the others; the profile's display name when left out. */
  displayName?: string;
  avatarPath?: string;
  /** The server refused the join (not a member: `permission-denied`) or could not be reached. */
  onError?: (error: EngramError) => void;
}

export interface DeckRoom {
  readonly deckId: string;
  /** Everyone here now, including the user, one entry per person. */
  presence(): DeckPresence[];
  /** Called with the whole list whenever it changes; returns a function that stops it. */
  onPresence(listener: (people: DeckPresence[]) => void): () => void;
  setActivity(activity: DeckActivity): Promise<void>;
  /** Tells the others that the user is editing a note (also kept in their presence). */
  startEditing(noteId: string): Promise<void>;
  stopEditing(): Promise<void>;
  /**
   * Tells the others which field of the note being edited the user is in
   * (`null` when none); a no-op unless editing. Updates are throttled: at most
   * one every quarter second, the last one always sent.
   */
  focusField(field: string | null): void;
  onEditing(listener: (signal: EditingSignal) => void): () => void;
  /** The room was joined again after a drop: presence is fresh, but broadcasts in between were missed. */
  onResync(listener: () => void): () => void;
  leave(): Promise<void>;
}

/** What each connection tracks (snake_case: it travels as JSON). */
interface PresenceMeta {
  user_id: string;
  display_name: string | null;
  avatar_path: string | null;
  activity: DeckActivity;
  editing_note_id: string | null;
  editing_field?: string | null;
  since: string;
}

const EDITING_EVENT = "editing";
/** Presence is tracked over the network: moving through the fields sends at most this often. */
const FIELD_THROTTLE_MS = 250;

/** The newest meta per user, as the list the UI shows. */
export function peopleFrom(state: Record<string, PresenceMeta[]>): DeckPresence[] {
  const people: DeckPresence[] = [];
  for (const metas of Object.values(state)) {
    const valid = metas.filter((meta) => typeof meta?.user_id === "string");
    const newest = valid.reduce<PresenceMeta | null>(
      (best, meta) => (!best || meta.since > best.since ? meta : best),
      null,
    );
    if (!newest) continue;
    people.push({
      userId: newest.user_id,
      displayName: newest.display_name ?? null,
      avatarPath: newest.avatar_path ?? null,
      activity: newest.activity,
      editingNoteId: newest.editing_note_id ?? null,
      editingField: (newest.editing_note_id && newest.editing_field) || null,
      since: newest.since,
      connections: valid.length,
    });
  }
  return people.sort(
    (a, b) => (a.displayName ?? "").localeCompare(b.displayName ?? "") || a.userId.localeCompare(b.userId),
  );
}

class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(value: T) {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch {
        // One failing listener must not silence the others.
      }
    }
  }
}

/** The shared state of one deck's channel on one client. */
class RoomChannel {
  readonly people = new Listeners<DeckPresence[]>();
  readonly editing = new Listeners<EditingSignal>();
  readonly resync = new Listeners<void>();
  readonly errors = new Listeners<EngramError>();
  handles = 0;
  current: DeckPresence[] = [];
  meta: PresenceMeta | null = null;
  private topic: TopicHandle | null = null;
  private closing = false;

  constructor(
    private readonly supabase: EngramClient,
    readonly deckId: string,
    /** The previous channel of this deck on this client, still leaving (realtime-js keeps one per topic). */
    private readonly previousClosed: Promise<void>,
  ) {}

  /** Reads who the user is, then joins with `initial` as the tracked presence. */
  async open(initial: Omit<PresenceMeta, "user_id" | "since" | "editing_note_id" | "editing_field">) {
    await this.previousClosed;
    const userId = await currentUserId(this.supabase);
    let { display_name, avatar_path } = initial;
    if (display_name === null || avatar_path === null) {
      const { data } = await this.supabase
        .from("profiles")
        .select("display_name, avatar_path")
        .eq("id", userId)
        .maybeSingle();
      display_name ??= data?.display_name ?? null;
      avatar_path ??= data?.avatar_path ?? null;
    }
    this.meta ??= {
      user_id: userId,
      display_name,
      avatar_path,
      activity: initial.activity,
      editing_note_id: null,
      editing_field: null,
      since: new Date().toISOString(),
    };
    if (this.closing) return;
    this.topic = attachToTopic(this.supabase, `deck:${this.deckId}`, {
      presence: (channel) => {
        this.current = peopleFrom(channel.presenceState<PresenceMeta>() as unknown as Record<string, PresenceMeta[]>);
        this.people.emit(this.current);
      },
      broadcast: { [EDITING_EVENT]: (payload) => this.heardEditing(payload) },
      onJoin: (channel, rejoin) => {
        // The server drops presence with the connection; track again on every join.
        this.track(channel).catch((error: unknown) => this.errors.emit(toEngramError(error)));
        if (rejoin) this.resync.emit();
      },
      onError: (error) => this.errors.emit(error),
    });
  }

  private heardEditing(value: unknown) {
    const payload = (typeof value === "object" && value !== null ? value : {}) as Partial<EditingSignal>;
    if (typeof payload.noteId !== "string" || typeof payload.userId !== "string") return;
    this.editing.emit({
      noteId: payload.noteId,
      userId: payload.userId,
      displayName: typeof payload.displayName === "string" ? payload.displayName : null,
      editing: payload.editing === true,
    });
  }

  private async track(channel: RealtimeChannel) {
    if (!this.meta) return;
    const status = await channel.track({ ...this.meta });
    if (status !== "ok") throw fromSendStatus(status);
  }

  /** Changes the tracked presence; sent now when joined, else on the join. */
  async update(patch: Partial<Pick<PresenceMeta, "activity" | "editing_note_id" | "editing_field">>) {
    if (!this.meta) return;
    this.meta = { ...this.meta, ...patch, since: new Date().toISOString() };
    const channel = this.topic?.joined();
    if (channel) await this.track(channel);
  }

  async broadcastEditing(noteId: string, editing: boolean) {
    const channel = this.topic?.joined();
    if (!channel || !this.meta) return;
    const signal: EditingSignal = {
      noteId,
      userId: this.meta.user_id,
      displayName: this.meta.display_name,
      editing,
    };
    const status = await channel.send({ type: "broadcast", event: EDITING_EVENT, payload: signal });
    if (status !== "ok") throw fromSendStatus(status);
  }

  async close() {
    this.closing = true;
    // The deck's channel may stay open for its other listeners (content changes): leave the room explicitly.
    const channel = this.topic?.joined();
    if (channel && this.meta) await channel.untrack().catch(() => undefined);
    await this.topic?.release();
  }
}

interface ClientRooms {
  open: Map<string, RoomChannel>;
  closing: Map<string, Promise<void>>;
}
const roomsByClient = new WeakMap<EngramClient, ClientRooms>();

export function joinDeckRoom(supabase: EngramClient, deckId: string, options: JoinDeckOptions): DeckRoom {
  const clientRooms = roomsByClient.get(supabase) ?? { open: new Map(), closing: new Map() };
  roomsByClient.set(supabase, clientRooms);
  const rooms = clientRooms.open;
  let room = rooms.get(deckId);
  if (!room) {
    const created = new RoomChannel(supabase, deckId, clientRooms.closing.get(deckId) ?? Promise.resolve());
    room = created;
    rooms.set(deckId, created);
    created
      .open({
        display_name: options.displayName ?? null,
        avatar_path: options.avatarPath ?? null,
        activity: options.activity ?? "viewing",
      })
      .catch((error: unknown) => created.errors.emit(toEngramError(error)));
  } else {
    // Another handle on this client already tracks; the newest handle's activity wins.
    const { activity } = options;
    if (activity) void room.update({ activity }).catch(() => undefined);
  }
  const shared = room;
  shared.handles += 1;
  const stops: Array<() => void> = [];
  if (options.onError) stops.push(shared.errors.add(options.onError));
  let editingNoteId: string | null = null;
  let left = false;
  // The field to announce next, and when the last one went out.
  let fieldTimer: ReturnType<typeof setTimeout> | null = null;
  let pendingField: string | null = null;
  let fieldSentAt = 0;
  const cancelField = () => {
    if (fieldTimer !== null) clearTimeout(fieldTimer);
    fieldTimer = null;
  };

  const stopEditing = async () => {
    const noteId = editingNoteId;
    if (noteId === null) return;
    editingNoteId = null;
    cancelField();
    await shared.update({ editing_note_id: null, editing_field: null });
    await shared.broadcastEditing(noteId, false);
  };

  return {
    deckId,
    presence: () => shared.current,
    onPresence: (listener) => {
      const stop = shared.people.add(listener);
      stops.push(stop);
      return stop;
    },
    setActivity: (activity) => shared.update({ activity }),
    async startEditing(noteId) {
      if (editingNoteId !== null && editingNoteId !== noteId) await stopEditing();
      if (editingNoteId === noteId) return;
      editingNoteId = noteId;
      await shared.update({ editing_note_id: noteId, editing_field: null });
      await shared.broadcastEditing(noteId, true);
    },
    stopEditing,
    focusField(field) {
      if (editingNoteId === null || left) return;
      pendingField = field;
      // A blur and the next focus arrive together: the timer sends only where the cursor ended up.
      if (fieldTimer !== null) return;
      fieldTimer = setTimeout(
        () => {
          fieldTimer = null;
          if (editingNoteId === null) return;
          fieldSentAt = Date.now();
          void shared.update({ editing_field: pendingField }).catch(() => undefined);
        },
        Math.max(0, fieldSentAt + FIELD_THROTTLE_MS - Date.now()),
      );
    },
    onEditing: (listener) => {
      const stop = shared.editing.add(listener);
      stops.push(stop);
      return stop;
    },
    onResync: (listener) => {
      const stop = shared.resync.add(() => listener());
      stops.push(stop);
      return stop;
    },
    async leave() {
      if (left) return;
      left = true;
      cancelField();
      for (const stop of stops) stop();
      shared.handles -= 1;
      if (shared.handles > 0) {
        if (editingNoteId !== null) await stopEditing().catch(() => undefined);
        return;
      }
      if (rooms.get(deckId) === shared) rooms.delete(deckId);
      const closing = shared.close();
      clientRooms.closing.set(deckId, closing);
      await closing;
      if (clientRooms.closing.get(deckId) === closing) clientRooms.closing.delete(deckId);
    },
  };
}
