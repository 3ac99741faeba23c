/**
 * "Add to my decks": clones the public deck (notes and media; schedules start
 * fresh) and opens the copy. Signed out, it leads to sign-in and back to this
 * deck's preview, where one more press adds it.
 */

import { errorMessage } from "../../lib/error-messages.js";
import { Link, useLocation, useNavigate } from "../../lib/navigation.js";
import { useSession } from "../../session/session-context.js";
import { useCloneDeck } from "./use-explore.js";

export function AddDeckButton({
  deckId,
  deckName,
  primary = false,
}: {
  deckId: string;
  deckName: string;
  /** The preview's main action; in the list it is a small secondary button. */
  primary?: boolean;
}) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const clone = useCloneDeck();
  const variant = primary ? "primary" : "secondary small";

  if (session.status !== "signed-in") {
    const back = new URLSearchParams(location.search);
    back.set("preview", deckId);
    const next = `/explore?${back.toString()}`;
    return (
      <Link className={`button ${variant}`} to={`/sign-in?next=${encodeURIComponent(next)}`}>
        Sign in to add <span className="visually-hidden">{deckName}</span>
      </Link>
    );
  }

  return (
    <span className="add-deck">
      <button
        type="button"
        className={`button ${variant}`}
        disabled={clone.isPending}
        aria-busy={clone.isPending || undefined}
        onClick={() => {
          clone.mutateAsync({ deckId }).then(
            (copyId) => navigate(`/decks/${copyId}`),
            () => undefined,
          );
        }}
      >
        {clone.isPending ? "Adding…" : "Add to my decks"}
        <span className="visually-hidden"> {deckName}</span>
      </button>
      {clone.error ? (
        <span role="alert" className="field-error">
          {errorMessage(clone.error)}
        </span>
      ) : null}
    </span>
  );
}
