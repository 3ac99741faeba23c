import { EngramError, type ReviewSession, type ReviewSessionState } from "@engram/sdk";
import { errorMessage } from "../../lib/error-messages.js";
import { useOnline } from "../../lib/use-online.js";

const answers = (n: number) => (n === 1 ? "1 answer" : `${n} answers`);

/**
 * Where the answers are: saved (nothing shown), waiting for the connection
 * ("n answers waiting to sync"), or refused for good (kept, with Retry).
 */
export function SyncStatus({
  state,
  session,
  fromDevice,
}: {
  state: ReviewSessionState;
  session: ReviewSession;
  fromDevice: boolean;
}) {
  const online = useOnline();
  const waiting = state.pending > 0 && (!online || state.waitingError !== null);
  const signedOut = state.waitingError !== null && state.waitingError.code !== "network";
  return (
    <div className="sync-status">
      <p role="status" className="sync-line">
        {waiting ? (
          <span className="sync-waiting">
            {answers(state.pending)} waiting to sync
            {signedOut ? " — sign in again to send them" : online ? " — retrying" : " — you're offline"}
          </span>
        ) : !online ? (
          <span className="sync-waiting">You're offline — answers are kept on this device</span>
        ) : null}
        {fromDevice && online === false && <span className="sync-note"> · today's cards from this device</span>}
      </p>
      {state.failures.length > 0 && (
        <div role="alert" className="notice sync-failures">
          <p>
            {answers(state.failures.length)} could not be saved:{" "}
            {errorMessage(new EngramError(codeOf(state.failures[0]?.failure?.code), ""))}
          </p>
          <button type="button" className="button secondary small" onClick={() => session.retryFailures()}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}

function codeOf(code: string | undefined): EngramError["code"] {
  return (code ?? "internal") as EngramError["code"];
}
