/**
 * `createEngram(supabase)`: Engram's typed API over one Supabase client, composed
 * of one sub-client per resource (as supabase-js composes its own).
 */
import type { createAccount } from "./account.js";
import { createAuth } from "./auth.js";
import type { createBrowse } from "./browse.js";
import type { createCardInfo } from "./card-info.js";
import type { createCards } from "./cards.js";
import type { createDeckPresets } from "./deck-presets.js";
import { createDecks } from "./decks.js";
import type { createDeletedNotes } from "./deleted-notes.js";
import type { createFindReplace } from "./find-replace.js";
import type { createInvites } from "./invites.js";
import { lazyClient } from "./lazy-client.js";
import type { createMembers } from "./members.js";
import { createMfa } from "./mfa.js";
import type { createNoteHistory } from "./note-history.js";
import type { createNoteTypes } from "./note-types.js";
import type { createNotes } from "./notes.js";
import type { createPersonalNotes } from "./personal-notes.js";
import { createProfile } from "./profile.js";
import { createSuggestionChanges } from "./realtime/suggestion-changes.js";
import { createRealtime } from "./realtime.js";
import { createSampleDeck } from "./sample-deck.js";
import { createStats } from "./stats.js";
import type { createStorage } from "./storage.js";
import { createScheduleFollowing } from "./study/follow.js";
import type { createStudy } from "./study/index.js";
import type { createSuggestions } from "./suggestions.js";
import type { EngramClient } from "./supabase-client.js";

export type { EngramClient };

type Account = ReturnType<typeof createAccount>;
type Browse = ReturnType<typeof createBrowse>;
type CardInfo = ReturnType<typeof createCardInfo>;
type Cards = ReturnType<typeof createCards>;
type DeckPresets = ReturnType<typeof createDeckPresets>;
type DeletedNotes = ReturnType<typeof createDeletedNotes>;
type FindReplace = ReturnType<typeof createFindReplace>;
type Invites = ReturnType<typeof createInvites>;
type Members = ReturnType<typeof createMembers>;
type NoteHistory = ReturnType<typeof createNoteHistory>;
type NoteTypes = ReturnType<typeof createNoteTypes>;
type Notes = ReturnType<typeof createNotes>;
type PersonalNotes = ReturnType<typeof createPersonalNotes>;
type Storage = ReturnType<typeof createStorage>;
type Study = ReturnType<typeof createStudy>;
type Suggestions = ReturnType<typeof createSuggestions>;

/**
 * The sub-clients a screen needs as it opens (the session, decks, statistics,
 * realtime) are built at once; the others, all async methods, load their code
 * with their first call (`lazyClient`), and so does `study` (the review
 * session, its outbox and the FSRS scheduler) but for its synchronous
 * `followSchedules`.
 */
export function createEngram(supabase: EngramClient) {
  const auth = Object.assign(createAuth(supabase), { mfa: createMfa(supabase) });
  return {
    /** The underlying client, for what the SDK does not cover yet. */
    supabase,
    auth,
    profile: createProfile(supabase),
    decks: createDecks(supabase),
    sampleDeck: createSampleDeck(supabase),
    presets: lazyClient<DeckPresets>(
      () => import("./deck-presets.js").then((module) => module.createDeckPresets(supabase)),
      { list: true, create: true, update: true, remove: true },
    ),
    members: lazyClient<Members>(() => import("./members.js").then((module) => module.createMembers(supabase)), {
      list: true,
      setRole: true,
      remove: true,
      leave: true,
    }),
    invites: lazyClient<Invites>(() => import("./invites.js").then((module) => module.createInvites(supabase)), {
      create: true,
      list: true,
      revoke: true,
      preview: true,
      accept: true,
    }),
    noteTypes: lazyClient<NoteTypes>(
      () => import("./note-types.js").then((module) => module.createNoteTypes(supabase)),
      { list: true, get: true, create: true, update: true, remove: true },
    ),
    notes: lazyClient<Notes>(() => import("./notes.js").then((module) => module.createNotes(supabase)), {
      list: true,
      ids: true,
      get: true,
      create: true,
      update: true,
      remove: true,
      move: true,
      addTags: true,
      removeTags: true,
    }),
    browse: lazyClient<Browse>(() => import("./browse.js").then((module) => module.createBrowse(supabase)), {
      page: true,
    }),
    findReplace: lazyClient<FindReplace>(
      () => import("./find-replace.js").then((module) => module.createFindReplace(supabase)),
      { load: true, preview: true, apply: true },
    ),
    noteHistory: lazyClient<NoteHistory>(
      () => import("./note-history.js").then((module) => module.createNoteHistory(supabase)),
      { list: true, deckChanges: true, deckHistory: true, revert: true },
    ),
    deletedNotes: lazyClient<DeletedNotes>(
      () => import("./deleted-notes.js").then((module) => module.createDeletedNotes(supabase)),
      { list: true, restore: true },
    ),
    personalNotes: lazyClient<PersonalNotes>(
      () => import("./personal-notes.js").then((module) => module.createPersonalNotes(supabase)),
      { get: true, listForDeck: true, save: true, setMarked: true, clear: true },
    ),
    suggestions: {
      ...lazyClient<Suggestions>(
        () => import("./suggestions.js").then((module) => module.createSuggestions(supabase)),
        { suggest: true, withdraw: true, pending: true, pendingCount: true, mine: true, review: true },
      ),
      ...createSuggestionChanges(supabase),
    },
    cards: lazyClient<Cards>(() => import("./cards.js").then((module) => module.createCards(supabase)), {
      listForNote: true,
      schedules: true,
      setSuspended: true,
      setBuried: true,
      setBuriedForNotes: true,
      setFlag: true,
      setSuspendedForNotes: true,
    }),
    cardInfo: lazyClient<CardInfo>(() => import("./card-info.js").then((module) => module.createCardInfo(supabase)), {
      get: true,
    }),
    study: {
      ...lazyClient<Omit<Study, "followSchedules">>(
        () => import("./study/index.js").then((module) => module.createStudy(supabase)),
        {
          queue: true,
          custom: true,
          extendToday: true,
          scheduler: true,
          recordReview: true,
          undo: true,
          session: true,
        },
      ),
      ...createScheduleFollowing(supabase),
    },
    stats: createStats(supabase),
    storage: lazyClient<Storage>(() => import("./storage.js").then((module) => module.createStorage(supabase)), {
      uploadMedia: true,
      mediaUrl: true,
      downloadMedia: true,
      removeMedia: true,
      uploadAvatar: true,
      removeAvatar: true,
      avatarUrl: true,
      uploadImport: true,
      importJobs: true,
      importJob: true,
      listExports: true,
      exportUrl: true,
    }),
    realtime: createRealtime(supabase),
    account: lazyClient<Account>(() => import("./account.js").then((module) => module.createAccount(supabase, auth)), {
      delete: true,
    }),
  };
}

export type Engram = ReturnType<typeof createEngram>;
