/** Auth actions as mutations, so forms get `isPending` and `error` the same way as data writes. */
import { useMutation } from "@tanstack/react-query";
import { useEngram } from "../../session/engram-context.js";
import { callbackUrl } from "../../session/places.js";

export function useSignIn() {
  const engram = useEngram();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) => engram.auth.signIn(input),
  });
}

export function useSignUp() {
  const engram = useEngram();
  return useMutation({
    mutationFn: (input: { email: string; password: string; next: string }) =>
      engram.auth.signUp({ email: input.email, password: input.password, redirectTo: callbackUrl(input.next) }),
  });
}

/** As on Supabase by default, a link to a new address signs its owner up (after they open it). */
export function useSendMagicLink() {
  const engram = useEngram();
  return useMutation({
    mutationFn: (input: { email: string; next: string }) =>
      engram.auth.sendMagicLink({ email: input.email, redirectTo: callbackUrl(input.next) }),
  });
}

export function useRequestPasswordReset() {
  const engram = useEngram();
  return useMutation({
    mutationFn: (email: string) =>
      engram.auth.requestPasswordReset({ email, redirectTo: callbackUrl("/reset-password") }),
  });
}

export function useUpdatePassword() {
  const engram = useEngram();
  return useMutation({ mutationFn: (password: string) => engram.auth.updatePassword(password) });
}
