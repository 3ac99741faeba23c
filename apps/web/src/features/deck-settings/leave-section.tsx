/** Editors and viewers leave a deck here; owners hand it over first. */
import type { MyDeck } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { useNavigate } from "../../lib/navigation.js";
import { useEngramMutations } from "../../session/mutations.js";

export function LeaveSection({ deck }: { deck: MyDeck }) {
  const [confirming, setConfirming] = useState(false);
  const leave = useMutation(useEngramMutations().members.leave());
  const navigate = useNavigate();
  return (
    <section className="settings-section" aria-labelledby="leave-heading">
      <h2 id="leave-heading">Leave deck</h2>
      <p className="settings-intro">
        The deck leaves your list and stays for its other members. To come back, you need a new invite link from its
        owner.
      </p>
      <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
        <LogOut aria-hidden="true" /> Leave deck
      </button>
      {confirming ? (
        <ConfirmDialog
          title={`Leave “${deck.name}”?`}
          confirmLabel="Leave deck"
          pendingLabel="Leaving…"
          cancelLabel="Stay"
          pending={leave.isPending}
          error={leave.error}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            // Awaited: the deck leaves the list (and this screen its settings) before the call returns.
            leave.mutateAsync(deck.id).then(
              () => navigate("/decks", { replace: true }),
              () => {},
            );
          }}
        >
          <p>You stop seeing its notes and studying it on every device.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
