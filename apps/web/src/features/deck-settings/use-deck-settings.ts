/** The settings screen's server state, through the SDK's query and mutation factories. */
import type { MyDeck } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { useSession } from "../../session/session-context.js";

export type SettingsAccess =
  | { status: "loading" }
  | { status: "error"; error: unknown; retry: () => void }
  /** Never a member, or the deck does not exist. */
  | { status: "not-found" }
  /** Was a member while this screen was open, and no longer is (removed, or the deck was deleted). */
  | { status: "lost" }
  | { status: "ready"; deck: MyDeck; userId: string };

/** The deck as one of the user's decks (with their role); settings are for members only. */
export function useSettingsAccess(deckId: string): SettingsAccess {
  const decks = useQuery(useEngramQueries().decks.list());
  const session = useSession();
  const hadAccess = useRef(false);
  if (decks.isPending) return { status: "loading" };
  if (decks.isError) return { status: "error", error: decks.error, retry: () => void decks.refetch() };
  const deck = decks.data.find((candidate) => candidate.id === deckId);
  if (!deck || session.status !== "signed-in") return { status: hadAccess.current ? "lost" : "not-found" };
  hadAccess.current = true;
  return { status: "ready", deck, userId: session.session.user.id };
}

export function useProfileDefaults() {
  return useQuery(useEngramQueries().profile.get());
}

export function useMembers(deckId: string) {
  return useQuery(useEngramQueries().members.list(deckId));
}

/**
 * Owners only. Nothing pushes invite changes to this screen, so the list is
 * asked for again whenever the window regains focus (stale at once).
 */
export function useInvites(deckId: string, enabled: boolean) {
  return useQuery({ ...useEngramQueries().invites.list(deckId), enabled, staleTime: 0 });
}

/** Hands the deck to another member; they become owner and the user an editor. */
export function useTransferOwnership() {
  return useMutation(useEngramMutations().decks.transferOwnership());
}
