/**
 * Two-factor sign-in: a user with an authenticator app enrolled is signed in
 * after the password with an aal1 session, and the database shows them
 * nothing until a code from the app raises it to aal2. Screens behind
 * RequireSession wait for that; the sign-in page asks for the code.
 */
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "./factories.js";
import { useSession } from "./session-context.js";

export type SecondFactor = "checking" | "needed" | "done";

export function useSecondFactor(): SecondFactor {
  const queries = useEngramQueries();
  const session = useSession();
  const signedIn = session.status === "signed-in";
  const assurance = useQuery({
    // Per user, not per token: a silent renewal must not send the screens back to loading.
    // Whatever changes the level (the code entered, a factor added or removed) refreshes it.
    ...queries.auth.assurance(signedIn ? session.session.user.id : null),
    enabled: signedIn,
  });
  if (!signedIn || assurance.isPending) return "checking";
  // Unknown (it failed): let the screens load; the database still refuses what aal1 may not see.
  if (!assurance.data) return "done";
  return assurance.data.current === "aal1" && assurance.data.next === "aal2" ? "needed" : "done";
}
