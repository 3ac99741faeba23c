/**
 * `createEngram(supabase)`: Engram's typed API over one Supabase client, composed
 * of one sub-client per resource (as supabase-js composes its own).
 */
import { createAccount } from "./account.js";
import { createAuth } from "./auth.js";
import { createBrowse } from "./browse.js";
import { createCardInfo } from "./card-info.js";
import { createCards } from "./cards.js";
import { createDeckPresets } from "./deck-presets.js";
import { createDecks } from "./decks.js";
import { createDeletedNotes } from "./deleted-notes.js";
import { createFindReplace } from "./find-replace.js";
import { createInvites } from "./invites.js";
import { createMembers } from "./members.js";
import { createMfa } from "./mfa.js";
import { createNoteHistory } from "./note-history.js";
import { createNoteTypes } from "./note-types.js";
import { createNotes } from "./notes.js";
import { createPersonalNotes } from "./personal-notes.js";
import { createProfile } from "./profile.js";
import { createRealtime } from "./realtime.js";
import { createSampleDeck } from "./sample-deck.js";
import { createStats } from "./stats.js";
import { createStorage } from "./storage.js";
import { createStudy } from "./study/index.js";
import { createSuggestions } from "./suggestions.js";
import type { EngramClient } from "./supabase-client.js";

export type { EngramClient };

export function createEngram(supabase: EngramClient) {
  const auth = Object.assign(createAuth(supabase), { mfa: createMfa(supabase) });
  return {
    /** The underlying client, for what the SDK does not cover yet. */
    supabase,
    auth,
    profile: createProfile(supabase),
    decks: createDecks(supabase),
    sampleDeck: createSampleDeck(supabase),
    presets: createDeckPresets(supabase),
    members: createMembers(supabase),
    invites: createInvites(supabase),
    noteTypes: createNoteTypes(supabase),
    notes: createNotes(supabase),
    browse: createBrowse(supabase),
    findReplace: createFindReplace(supabase),
    noteHistory: createNoteHistory(supabase),
    deletedNotes: createDeletedNotes(supabase),
    personalNotes: createPersonalNotes(supabase),
    suggestions: createSuggestions(supabase),
    cards: createCards(supabase),
    cardInfo: createCardInfo(supabase),
    study: createStudy(supabase),
    stats: createStats(supabase),
    storage: createStorage(supabase),
    realtime: createRealtime(supabase),
    account: createAccount(supabase, auth),
  };
}

export type Engram = ReturnType<typeof createEngram>;
