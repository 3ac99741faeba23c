/** Auth actions as mutations, so forms get `isPending` and `error` the same way as data writes. */
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useEngramMutations } from "../../session/mutations.js";
import { callbackUrl } from "../../session/places.js";

/** A mutation whose `mutate` takes the form's input and hands the SDK what it needs from it. */
function withInput<Result, Variables, Input>(
  mutation: UseMutationResult<Result, Error, Variables>,
  toVariables: (input: Input) => Variables,
) {
  return {
    ...mutation,
    mutate: (input: Input, options?: Parameters<typeof mutation.mutate>[1]) =>
      mutation.mutate(toVariables(input), options),
  };
}

export function useSignIn() {
  return useMutation(useEngramMutations().auth.signIn());
}

export function useSignUp() {
  const signUp = useMutation(useEngramMutations().auth.signUp());
  return withInput(signUp, (input: { email: string; password: string; next: string }) => ({
    email: input.email,
    password: input.password,
    // The callback tells a confirmation opened in another browser from a failed link by this mark.
    redirectTo: `${callbackUrl(input.next)}&flow=signup`,
  }));
}

/** As on Supabase by default, a link to a new address signs its owner up (after they open it). */
export function useSendMagicLink() {
  const magicLink = useMutation(useEngramMutations().auth.sendMagicLink());
  return withInput(magicLink, (input: { email: string; next: string }) => ({
    email: input.email,
    redirectTo: callbackUrl(input.next),
  }));
}

export function useRequestPasswordReset() {
  const reset = useMutation(useEngramMutations().auth.requestPasswordReset());
  return withInput(reset, (email: string) => ({ email, redirectTo: callbackUrl("/reset-password") }));
}

export function useUpdatePassword() {
  return useMutation(useEngramMutations().auth.updatePassword());
}
