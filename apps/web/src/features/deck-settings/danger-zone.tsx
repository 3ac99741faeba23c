/** Deleting the deck, for its owner: the deck's name typed out first, because nothing brings it back. */
import type { MyDeck } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { TextField } from "../../forms/text-field.js";
import { useNavigate } from "../../lib/navigation.js";
import { useEngramMutations } from "../../session/mutations.js";

export function DangerZone({ deck }: { deck: MyDeck }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="settings-section danger-zone" aria-labelledby="danger-heading">
      <h2 id="danger-heading">Danger zone</h2>
      <p className="settings-intro">
        Deleting the deck removes its notes, cards, media and every member's study progress in it, for everyone. To keep
        it going without you, make another member the owner instead, then leave.
      </p>
      <button type="button" className="button danger" onClick={() => setConfirming(true)}>
        <Trash2 aria-hidden="true" /> Delete deck
      </button>
      {confirming ? <DeleteDialog deck={deck} onClose={() => setConfirming(false)} /> : null}
    </section>
  );
}

function DeleteDialog({ deck, onClose }: { deck: MyDeck; onClose: () => void }) {
  const [typed, setTyped] = useState("");
  const [tried, setTried] = useState(false);
  const remove = useMutation(useEngramMutations().decks.remove());
  const navigate = useNavigate();
  const matches = typed.trim() === deck.name;
  return (
    <ConfirmDialog
      title={`Delete “${deck.name}”?`}
      confirmLabel="Delete deck for everyone"
      pendingLabel="Deleting…"
      cancelLabel="Keep deck"
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => {
        if (!matches) {
          setTried(true);
          return;
        }
        // Awaited: the deck leaves the list, and this screen, before the call returns.
        remove.mutateAsync(deck.id).then(
          () => navigate("/decks", { replace: true }),
          () => {},
        );
      }}
    >
      <p>This cannot be undone. Type the deck's name to confirm.</p>
      <TextField
        name="confirm-name"
        label="Deck name"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        error={tried && !matches ? `Type “${deck.name}” exactly as it is written.` : undefined}
      />
    </ConfirmDialog>
  );
}
