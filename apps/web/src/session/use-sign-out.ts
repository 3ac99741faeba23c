import { useMutation } from "@tanstack/react-query";
import { useEngramMutations } from "./mutations.js";

/** Signing out of this device, from the sign-in screen's second step as from the header's menu. */
export function useSignOut() {
  return useMutation(useEngramMutations().auth.signOut());
}
