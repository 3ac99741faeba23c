import type { MyDeck } from "@engram/sdk";
import { NameDialog } from "../../forms/name-dialog.js";
import { useCreateDeck } from "./use-decks.js";

/** A new deck under `parent`; it starts with the parent's members in their roles. */
export function AddSubdeckDialog({ parent, onClose }: { parent: MyDeck; onClose: () => void }) {
  const create = useCreateDeck();
  return (
    <NameDialog
      title={`Add a subdeck to “${parent.name}”`}
      label="Subdeck name"
      hint={`Studying “${parent.name}” studies its subdecks too. Its members can use the subdeck.`}
      submitLabel="Add subdeck"
      pendingLabel="Adding…"
      pending={create.isPending}
      error={create.error}
      onSubmit={(name) => create.mutate({ name, parentId: parent.id }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
