/**
 * `mutationOptions` for every write, each invalidating the keys it affects by
 * prefix. `onSuccess` returns the invalidation promise, so `isPending` lasts
 * until the refetch has landed.
 */

import type { NoteType } from "@engram/core";
import { mutationOptions, type QueryClient } from "@tanstack/react-query";
import type { SignUpInput } from "../auth.js";
import type { CardFlag } from "../cards.js";
import type { Engram } from "../client.js";
import type { PresetInput, PresetPatch } from "../deck-presets.js";
import type { DeckPatch, MyDeck, NewDeckInput } from "../decks.js";
import type { EngramError } from "../errors.js";
import type { FindReplacePreview } from "../find-replace.js";
import type { InviteInput } from "../invites.js";
import type { MemberRole } from "../members.js";
import type { NoteTypeFrom, NoteTypeInput, NoteTypeUpdateOptions } from "../note-types.js";
import type { NoteInput, NoteVersion } from "../notes.js";
import type { PersonalNoteInput } from "../personal-notes.js";
import type { ProfilePatch } from "../profile.js";
import type { FileInput, UploadOptions } from "../storage.js";
import type { ReviewInput, SuggestionInput } from "../suggestions.js";
import { invalidateKeys } from "./invalidations.js";
import { engramKeys } from "./keys.js";

type Key = readonly unknown[];

export function engramMutations(engram: Engram, queryClient: QueryClient) {
  const invalidate = (...keys: Key[]) => invalidateKeys(queryClient, keys);
  // What a change to a deck's notes or cards can affect.
  const deckContent = (deckId: string) => [
    engramKeys.notes.deck(deckId),
    engramKeys.cards.all,
    engramKeys.study.all,
    engramKeys.stats.all,
  ];
  // What a change to the user's own tags and My notes on a note affects: the note list shows and filters by the tags.
  const personalLayer = (deckId: string, noteId: string) => [
    engramKeys.personalNotes.detail(noteId),
    engramKeys.personalNotes.deck(deckId),
    engramKeys.notes.deck(deckId),
  ];
  // A bulk action refused because notes changed since they were loaded: the list reloads with their new versions.
  const reloadIfStale = (error: Error, deckId: string) =>
    (error as Partial<EngramError>).code === "note/conflict" ? invalidate(engramKeys.notes.deck(deckId)) : undefined;

  return {
    // Signing in or up, and the links asked for by email, change no cached data: the session's listener follows them.
    auth: {
      signIn: () =>
        mutationOptions({ mutationFn: (input: { email: string; password: string }) => engram.auth.signIn(input) }),
      signUp: () => mutationOptions({ mutationFn: (input: SignUpInput) => engram.auth.signUp(input) }),
      /** As on Supabase by default, a link to a new address signs its owner up (after they open it). */
      sendMagicLink: () =>
        mutationOptions({
          mutationFn: (input: { email: string; redirectTo?: string }) => engram.auth.sendMagicLink(input),
        }),
      /** The code from a sign-up or sign-in email, typed in instead of opening its link. */
      verifyEmailCode: () =>
        mutationOptions({
          mutationFn: (input: { email: string; code: string }) => engram.auth.verifyEmailCode(input),
        }),
      resendConfirmation: () =>
        mutationOptions({
          mutationFn: (input: { email: string; redirectTo?: string }) => engram.auth.resendConfirmation(input),
        }),
      requestPasswordReset: () =>
        mutationOptions({
          mutationFn: (input: { email: string; redirectTo?: string }) => engram.auth.requestPasswordReset(input),
        }),
      updatePassword: () => mutationOptions({ mutationFn: (password: string) => engram.auth.updatePassword(password) }),
      // Factors and the session's level change together: adding or removing an app refreshes both.
      mfa: {
        /** Starts adding an authenticator app; nothing changes until `verifyTotp` confirms it. */
        enrollTotp: () =>
          mutationOptions({
            mutationFn: (options: { friendlyName?: string } = {}) => engram.auth.mfa.enrollTotp(options),
          }),
        verifyTotp: () =>
          mutationOptions({
            mutationFn: ({ factorId, code }: { factorId: string; code: string }) =>
              engram.auth.mfa.verifyTotp(factorId, code),
            onSuccess: () => invalidate(engramKeys.auth.all),
          }),
        unenroll: () =>
          mutationOptions({
            mutationFn: (factorId: string) => engram.auth.mfa.unenroll(factorId),
            onSuccess: () => invalidate(engramKeys.auth.all),
          }),
        /**
         * The second step of a password sign-in: the code from the user's
         * verified app raises the session to aal2, and the screens waiting on
         * the level may open.
         */
        completeSignIn: () =>
          mutationOptions({
            mutationFn: async (code: string) => {
              const factors = await engram.auth.mfa.listFactors();
              const factor = factors.find((candidate) => candidate.status === "verified");
              if (!factor) return;
              await engram.auth.mfa.verifyTotp(factor.id, code);
            },
            onSuccess: () => invalidate(engramKeys.auth.assurance()),
          }),
      },
      signOut: () =>
        mutationOptions({
          mutationFn: (scope: "local" | "global" | "others" = "local") => engram.auth.signOut({ scope }),
          // Nothing cached belongs to the next user.
          onSuccess: () => queryClient.clear(),
        }),
    },
    account: {
      /**
       * The picture goes first, with the user's own session; the deletion then
       * removes every file still left. Losing only the picture, should the
       * deletion fail, is what the user asked for anyway.
       */
      delete: () =>
        mutationOptions({
          mutationFn: async () => {
            await engram.storage.removeAvatar();
            await engram.account.delete();
          },
          onSuccess: () => queryClient.clear(),
        }),
    },
    profile: {
      /** The name others see, confirmed by the user (before publishing or inviting). */
      chooseName: () =>
        mutationOptions({
          mutationFn: (displayName: string) => engram.profile.chooseName(displayName),
          onSuccess: (profile) => {
            queryClient.setQueryData(engramKeys.profile.detail(), profile);
            return invalidate(engramKeys.members.all);
          },
        }),
      update: () =>
        mutationOptions({
          mutationFn: (patch: ProfilePatch) => engram.profile.update(patch),
          // Limits, time zone and day start change what is due today.
          onSuccess: (profile) => {
            queryClient.setQueryData(engramKeys.profile.detail(), profile);
            return invalidate(engramKeys.study.all, engramKeys.stats.all);
          },
        }),
      uploadAvatar: () =>
        mutationOptions({
          mutationFn: ({ file, options }: { file: FileInput; options?: UploadOptions }) =>
            engram.storage.uploadAvatar(file, options),
          onSuccess: () => invalidate(engramKeys.profile.all, engramKeys.members.all),
        }),
      // Co-members' lists show the picture too.
      removeAvatar: () =>
        mutationOptions({
          mutationFn: () => engram.storage.removeAvatar(),
          onSuccess: () => invalidate(engramKeys.profile.all, engramKeys.members.all),
        }),
    },
    decks: {
      create: () =>
        mutationOptions({
          mutationFn: (input: NewDeckInput) => engram.decks.create(input),
          onSuccess: () => invalidate(engramKeys.decks.all, engramKeys.stats.all),
        }),
      /** The sample deck, made once: asking again returns the one there is. */
      addSample: () =>
        mutationOptions({
          mutationFn: () => engram.sampleDeck.add(),
          onSuccess: () => invalidate(engramKeys.decks.all, engramKeys.stats.all, engramKeys.study.all),
        }),
      /** Optimistic: the deck list shows the change at once and rolls back if the server refuses it. */
      update: () =>
        mutationOptions({
          mutationFn: ({ deckId, patch }: { deckId: string; patch: DeckPatch }) => engram.decks.update(deckId, patch),
          onMutate: async ({ deckId, patch }) => {
            const key = engramKeys.decks.list();
            await queryClient.cancelQueries({ queryKey: key });
            const previous = queryClient.getQueryData<MyDeck[]>(key);
            queryClient.setQueryData<MyDeck[]>(key, (decks) =>
              decks?.map((deck) =>
                deck.id === deckId ? { ...deck, ...patch, name: patch.name?.trim() ?? deck.name } : deck,
              ),
            );
            return { previous };
          },
          onError: (_error, _variables, context) => {
            if (context?.previous) queryClient.setQueryData(engramKeys.decks.list(), context.previous);
          },
          // Limits and bury settings change what studying the deck gives, so its queue and counts;
          // a limit of its own takes the deck off its preset.
          onSettled: () =>
            invalidate(engramKeys.decks.all, engramKeys.presets.all, engramKeys.study.all, engramKeys.stats.decks()),
        }),
      /** The deck takes the preset's options (or keeps its own): what studying it gives changes. */
      setPreset: () =>
        mutationOptions({
          mutationFn: ({ deckId, presetId }: { deckId: string; presetId: string | null }) =>
            engram.decks.setPreset(deckId, presetId),
          onSuccess: () =>
            invalidate(engramKeys.decks.all, engramKeys.presets.all, engramKeys.study.all, engramKeys.stats.decks()),
        }),
      /** A deck moved in the tree: the studies and counts of its old and new parents change with it. */
      setParent: () =>
        mutationOptions({
          mutationFn: ({ deckId, parentId }: { deckId: string; parentId: string | null }) =>
            engram.decks.setParent(deckId, parentId),
          // Its notes may now use copies of note types it left behind.
          onSuccess: () =>
            invalidate(
              engramKeys.decks.all,
              engramKeys.study.all,
              engramKeys.stats.all,
              engramKeys.notes.all,
              engramKeys.noteTypes.all,
            ),
        }),
      remove: () =>
        mutationOptions({
          mutationFn: (deckId: string) => engram.decks.remove(deckId),
          onSuccess: () =>
            invalidate(engramKeys.decks.all, engramKeys.presets.all, engramKeys.study.all, engramKeys.stats.all),
        }),
      /** The copy's new id; its media are copied too. */
      clone: () =>
        mutationOptions({
          mutationFn: ({ deckId, name }: { deckId: string; name?: string }) => engram.decks.clone(deckId, name),
          onSuccess: () => invalidate(engramKeys.decks.all, engramKeys.study.all, engramKeys.stats.all),
        }),
      /** The old owner becomes an editor: roles, the deck's settings and its invites (owners only) change. */
      transferOwnership: () =>
        mutationOptions({
          mutationFn: ({ deckId, userId }: { deckId: string; userId: string }) =>
            engram.decks.transferOwnership(deckId, userId),
          onSuccess: (_result, { deckId }) =>
            invalidate(
              engramKeys.decks.all,
              engramKeys.presets.all,
              engramKeys.members.list(deckId),
              engramKeys.invites.list(deckId),
            ),
        }),
    },
    presets: {
      create: () =>
        mutationOptions({
          mutationFn: (input: PresetInput) => engram.presets.create(input),
          onSuccess: () => invalidate(engramKeys.presets.all),
        }),
      /** The options of every deck using the preset change with it, and so what studying them gives. */
      update: () =>
        mutationOptions({
          mutationFn: ({ presetId, patch }: { presetId: string; patch: PresetPatch }) =>
            engram.presets.update(presetId, patch),
          onSuccess: () =>
            invalidate(engramKeys.presets.all, engramKeys.decks.all, engramKeys.study.all, engramKeys.stats.decks()),
        }),
      /** Its decks keep their options, but no longer name it. */
      remove: () =>
        mutationOptions({
          mutationFn: (presetId: string) => engram.presets.remove(presetId),
          onSuccess: () => invalidate(engramKeys.presets.all, engramKeys.decks.all),
        }),
    },
    suggestions: {
      suggest: () =>
        mutationOptions({
          mutationFn: (input: SuggestionInput) => engram.suggestions.suggest(input),
          onSuccess: (suggestion) =>
            invalidate(engramKeys.suggestions.mine(), engramKeys.suggestions.deck(suggestion.deck_id)),
        }),
      withdraw: () =>
        mutationOptions({
          mutationFn: (id: string) => engram.suggestions.withdraw(id),
          onSuccess: (suggestion) =>
            invalidate(engramKeys.suggestions.mine(), engramKeys.suggestions.deck(suggestion.deck_id)),
        }),
      /** Accepting changes the deck's notes; a refusal because some changed meanwhile reloads the queue. */
      review: () =>
        mutationOptions({
          mutationFn: ({ input }: { deckId: string; input: ReviewInput }) => engram.suggestions.review(input),
          onSuccess: (_result, { deckId }) =>
            invalidate(engramKeys.suggestions.all, ...deckContent(deckId), engramKeys.notes.all),
          onError: (error, { deckId }) =>
            (error as Partial<EngramError>).code === "conflict"
              ? invalidate(engramKeys.suggestions.deck(deckId))
              : undefined,
        }),
    },
    members: {
      setRole: () =>
        mutationOptions({
          mutationFn: ({ deckId, userId, role }: { deckId: string; userId: string; role: MemberRole }) =>
            engram.members.setRole(deckId, userId, role),
          onSuccess: (_result, { deckId }) => invalidate(engramKeys.members.list(deckId)),
        }),
      remove: () =>
        mutationOptions({
          mutationFn: ({ deckId, userId }: { deckId: string; userId: string }) => engram.members.remove(deckId, userId),
          onSuccess: (_result, { deckId }) => invalidate(engramKeys.members.list(deckId)),
        }),
      leave: () =>
        mutationOptions({
          mutationFn: (deckId: string) => engram.members.leave(deckId),
          onSuccess: () => invalidate(engramKeys.decks.all, engramKeys.study.all, engramKeys.stats.all),
        }),
    },
    invites: {
      create: () =>
        mutationOptions({
          mutationFn: ({ deckId, input }: { deckId: string; input: InviteInput }) =>
            engram.invites.create(deckId, input),
          onSuccess: (_invite, { deckId }) => invalidate(engramKeys.invites.list(deckId)),
        }),
      revoke: () =>
        mutationOptions({
          mutationFn: (inviteId: string) => engram.invites.revoke(inviteId),
          onSuccess: (invite) => invalidate(engramKeys.invites.list(invite.deck_id)),
        }),
      accept: () =>
        mutationOptions({
          mutationFn: (token: string) => engram.invites.accept(token),
          onSuccess: () => invalidate(engramKeys.decks.all, engramKeys.study.all, engramKeys.stats.all),
        }),
    },
    noteHistory: {
      /** Brings back a version of a note as a new one; the note, its history and the deck's lists refresh. */
      revert: () =>
        mutationOptions({
          mutationFn: ({ noteId, version, baseVersion }: { noteId: string; version: number; baseVersion: number }) =>
            engram.noteHistory.revert(noteId, version, baseVersion),
          onSuccess: (note) => invalidate(engramKeys.notes.detail(note.id), ...deckContent(note.deck_id)),
          onError: (error, { noteId }) =>
            (error as Partial<EngramError>).code === "note/conflict"
              ? invalidate(engramKeys.notes.detail(noteId))
              : undefined,
        }),
    },
    deletedNotes: {
      /** Notes back with their cards and schedules: the deck's lists, the cards, what is due and the figures refresh. */
      restore: () =>
        mutationOptions({
          mutationFn: ({ noteIds }: { deckId: string; noteIds: string[] }) => engram.deletedNotes.restore(noteIds),
          onSuccess: (_count, { deckId }) => invalidate(...deckContent(deckId)),
        }),
    },
    notes: {
      create: () =>
        mutationOptions({
          mutationFn: ({ deckId, input }: { deckId: string; input: NoteInput }) => engram.notes.create(deckId, input),
          onSuccess: (_note, { deckId }) => invalidate(...deckContent(deckId)),
        }),
      update: () =>
        mutationOptions({
          mutationFn: ({ noteId, version, input }: { noteId: string; version: number; input: NoteInput }) =>
            engram.notes.update(noteId, version, input),
          onSuccess: (note) => invalidate(engramKeys.notes.detail(note.id), ...deckContent(note.deck_id)),
        }),
      remove: () =>
        mutationOptions({
          mutationFn: ({ notes }: { deckId: string; notes: NoteVersion[] }) => engram.notes.remove(notes),
          onSuccess: (_count, { deckId }) => invalidate(...deckContent(deckId)),
          onError: (error, { deckId }) => reloadIfStale(error, deckId),
        }),
      move: () =>
        mutationOptions({
          mutationFn: ({ notes, toDeckId }: { fromDeckId: string; notes: NoteVersion[]; toDeckId: string }) =>
            engram.notes.move(notes, toDeckId),
          onSuccess: (_count, { fromDeckId, toDeckId }) =>
            invalidate(...deckContent(fromDeckId), engramKeys.notes.deck(toDeckId), engramKeys.decks.all),
          onError: (error, { fromDeckId }) => reloadIfStale(error, fromDeckId),
        }),
      addTags: () =>
        mutationOptions({
          mutationFn: ({ notes, tags }: { deckId: string; notes: NoteVersion[]; tags: string[] }) =>
            engram.notes.addTags(notes, tags),
          onSuccess: (_notes, { deckId }) => invalidate(engramKeys.notes.deck(deckId)),
          onError: (error, { deckId }) => reloadIfStale(error, deckId),
        }),
      removeTags: () =>
        mutationOptions({
          mutationFn: ({ notes, tags }: { deckId: string; notes: NoteVersion[]; tags: string[] }) =>
            engram.notes.removeTags(notes, tags),
          onSuccess: (_notes, { deckId }) => invalidate(engramKeys.notes.deck(deckId)),
          onError: (error, { deckId }) => reloadIfStale(error, deckId),
        }),
      /** Makes a find and replace's previewed changes, all or none; returns how many notes changed. */
      replace: () =>
        mutationOptions({
          mutationFn: ({ preview }: { deckId: string; preview: Pick<FindReplacePreview, "changes"> }) =>
            engram.findReplace.apply(preview),
          onSuccess: (_count, { deckId }) => invalidate(...deckContent(deckId)),
          onError: (error, { deckId }) => reloadIfStale(error, deckId),
        }),
    },
    noteTypes: {
      create: () =>
        mutationOptions({
          /** The type given, or Anki's stock type or a copy of another type (`from`) under a new name. */
          mutationFn: (args: { deckId: string; input: NoteTypeInput } | NoteTypeFrom) =>
            "input" in args ? engram.noteTypes.create(args.deckId, args.input) : engram.noteTypes.create(args),
          onSuccess: (_type, { deckId }) => invalidate(engramKeys.noteTypes.deck(deckId)),
        }),
      /** Its notes' fields and cards may change with it. A stale version reloads the deck's note types. */
      update: () =>
        mutationOptions({
          mutationFn: ({
            noteTypeId,
            version,
            patch,
            deleteCards,
            ...options
          }: {
            noteTypeId: string;
            version: number;
            patch: Partial<NoteType>;
          } & NoteTypeUpdateOptions) =>
            engram.noteTypes.update(noteTypeId, version, patch, { ...options, deleteCards: deleteCards ?? false }),
          onSuccess: (type) =>
            invalidate(
              engramKeys.noteTypes.deck(type.deck_id),
              engramKeys.noteTypes.detail(type.id),
              ...deckContent(type.deck_id),
            ),
          onError: (error, { noteTypeId }) =>
            (error as Partial<EngramError>).code === "note-type/conflict"
              ? invalidate(engramKeys.noteTypes.detail(noteTypeId), engramKeys.noteTypes.all)
              : undefined,
        }),
      remove: () =>
        mutationOptions({
          mutationFn: ({ noteTypeId }: { deckId: string; noteTypeId: string }) => engram.noteTypes.remove(noteTypeId),
          onSuccess: (_result, { deckId, noteTypeId }) =>
            invalidate(engramKeys.noteTypes.deck(deckId), engramKeys.noteTypes.detail(noteTypeId)),
        }),
    },
    // Saved apart from the note: the note's version and everyone else's view stay as they are.
    personalNotes: {
      save: () =>
        mutationOptions({
          mutationFn: ({ noteId, input }: { deckId: string; noteId: string; input: PersonalNoteInput }) =>
            engram.personalNotes.save(noteId, input),
          onSuccess: (_saved, { deckId, noteId }) => invalidate(...personalLayer(deckId, noteId)),
        }),
      clear: () =>
        mutationOptions({
          mutationFn: ({ noteId }: { deckId: string; noteId: string }) => engram.personalNotes.clear(noteId),
          onSuccess: (_result, { deckId, noteId }) => invalidate(...personalLayer(deckId, noteId)),
        }),
      /** Anki's "mark note", as the user's own tag `marked`. */
      setMarked: () =>
        mutationOptions({
          mutationFn: ({ noteId, marked }: { deckId: string; noteId: string; marked: boolean }) =>
            engram.personalNotes.setMarked(noteId, marked),
          onSuccess: (_saved, { deckId, noteId }) => invalidate(...personalLayer(deckId, noteId)),
        }),
    },
    study: {
      /** More new cards today: the deck's queue and its counts in the deck list grow. */
      extendToday: () =>
        mutationOptions({
          mutationFn: ({ deckId, extraNew }: { deckId: string; extraNew: number }) =>
            engram.study.extendToday(deckId, extraNew),
          onSuccess: () => invalidate(engramKeys.study.all, engramKeys.decks.all, engramKeys.stats.all),
        }),
    },
    cards: {
      setSuspended: () =>
        mutationOptions({
          mutationFn: ({ cardIds, suspended }: { cardIds: string[]; suspended: boolean }) =>
            engram.cards.setSuspended(cardIds, suspended),
          onSuccess: () => invalidate(engramKeys.cards.all, engramKeys.study.all, engramKeys.stats.all),
        }),
      /** Every card of the notes given, in one change. */
      setSuspendedForNotes: () =>
        mutationOptions({
          mutationFn: ({ noteIds, suspended }: { noteIds: string[]; suspended: boolean }) =>
            engram.cards.setSuspendedForNotes(noteIds, suspended),
          onSuccess: () => invalidate(engramKeys.cards.all, engramKeys.study.all, engramKeys.stats.all),
        }),
      /** Buried cards leave today's queue and its counts. */
      setBuried: () =>
        mutationOptions({
          mutationFn: ({ cardIds, buried }: { cardIds: string[]; buried: boolean }) =>
            engram.cards.setBuried(cardIds, buried),
          onSuccess: () => invalidate(engramKeys.cards.all, engramKeys.study.all, engramKeys.decks.all),
        }),
      setBuriedForNotes: () =>
        mutationOptions({
          mutationFn: ({ noteIds, buried }: { noteIds: string[]; buried: boolean }) =>
            engram.cards.setBuriedForNotes(noteIds, buried),
          onSuccess: () => invalidate(engramKeys.cards.all, engramKeys.study.all, engramKeys.decks.all),
        }),
      /** A flag is the user's own mark on their schedule: only what shows cards changes. */
      setFlag: () =>
        mutationOptions({
          mutationFn: ({ cardIds, flag }: { cardIds: string[]; flag: CardFlag }) => engram.cards.setFlag(cardIds, flag),
          onSuccess: () => invalidate(engramKeys.cards.all),
        }),
    },
    media: {
      upload: () =>
        mutationOptions({
          mutationFn: ({ deckId, file, options }: { deckId: string; file: FileInput; options?: UploadOptions }) =>
            engram.storage.uploadMedia(deckId, file, options),
        }),
    },
    imports: {
      upload: () =>
        mutationOptions({
          mutationFn: ({ file, options }: { file: FileInput; options?: UploadOptions }) =>
            engram.storage.uploadImport(file, options),
          onSuccess: () => invalidate(engramKeys.imports.all),
        }),
    },
  };
}
