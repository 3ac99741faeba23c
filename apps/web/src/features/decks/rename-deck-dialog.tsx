import type { MyDeck } from "@engram/sdk";
import { NameDialog } from "../../forms/name-dialog.js";
import { useUpdateDeck } from "./use-decks.js";

export function RenameDeckDialog({ deck, onClose }: { deck: MyDeck; onClose: () => void }) {
  const update = useUpdateDeck();
  return (
    <NameDialog
      title={`Rename “${deck.name}”`}
      label="Deck name"
      defaultValue={deck.name}
      submitLabel="Save name"
      pendingLabel="Saving…"
      pending={update.isPending}
      error={update.error}
      onSubmit={(name) => update.mutate({ deckId: deck.id, patch: { name } }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
