/** The settings screen's reads and writes, over the SDK's query and mutation factories. */
import { engramKeys } from "@engram/sdk/query";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEngram } from "../../session/engram-context.js";
import { useEngramMutations, useEngramQueries } from "../../session/factories.js";

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
  const engram = useEngram();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => engram.storage.removeAvatar(),
    // Co-members' lists show the picture too.
    onSuccess: () =>
      Promise.all(
        [engramKeys.profile.all, engramKeys.members.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** A signed link to a picture, cached per path under the same key as the deck screen's avatars. */
export function useAvatarUrl(path: string | null) {
  const engram = useEngram();
  return useQuery({
    queryKey: ["profile", "avatar-url", path],
    queryFn: () => engram.storage.avatarUrl(path ?? ""),
    enabled: Boolean(path),
    staleTime: 30 * 60_000,
  });
}

export function useSignOutEverywhere() {
  const signOut = useMutation(useEngramMutations().auth.signOut());
  return { ...signOut, mutate: (options?: Parameters<typeof signOut.mutate>[1]) => signOut.mutate("global", options) };
}

export function useDeleteAccount() {
  const engram = useEngram();
  const remove = useEngramMutations().account.delete();
  return useMutation({
    ...remove,
    // The account's deletion cascades through the tables but not through storage: the
    // picture goes first, while this session may still delete it. Losing only the
    // picture, should the deletion then fail, is what the user asked for anyway.
    mutationFn: async () => {
      await engram.storage.removeAvatar();
      await engram.account.delete();
    },
  });
}
