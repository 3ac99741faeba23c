/** The settings screen's reads and writes, over the SDK's query and mutation factories. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";

export function useProfile() {
  return useQuery(useEngramQueries().profile.get());
}

/** Each section holds its own, so one section's error or success stays beside its own fields. */
export function useUpdateProfile() {
  return useMutation(useEngramMutations().profile.update());
}

export function useUploadAvatar() {
  return useMutation(useEngramMutations().profile.uploadAvatar());
}

export function useRemoveAvatar() {
  return useMutation(useEngramMutations().profile.removeAvatar());
}

/** A signed link to a picture, cached per path under the same key as the deck screen's avatars. */
export function useAvatarUrl(path: string | null) {
  return useQuery(useEngramQueries().profile.avatarUrl(path));
}

export function useSignOutEverywhere() {
  const signOut = useMutation(useEngramMutations().auth.signOut());
  return { ...signOut, mutate: (options?: Parameters<typeof signOut.mutate>[1]) => signOut.mutate("global", options) };
}

export function useDeleteAccount() {
  return useMutation(useEngramMutations().account.delete());
}
