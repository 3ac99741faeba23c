/** Who is in the deck. The owner changes roles, removes people and hands the deck over. */
import type { DeckMember, MemberRole, MyDeck } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { Crown, UserMinus } from "lucide-react";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { errorMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import { MemberAvatar } from "./member-avatar.js";
import { roleAllows, roleLabels } from "./roles.js";
import { useMembers, useTransferOwnership } from "./use-deck-settings.js";

const nameOf = (member: DeckMember) => member.display_name || "Unnamed member";

export function MembersSection({ deck, userId }: { deck: MyDeck; userId: string }) {
  const members = useMembers(deck.id);
  const owner = deck.role === "owner";
  const mutations = useEngramMutations();
  const setRole = useMutation(mutations.members.setRole());
  const [status, setStatus] = useState("");
  const [removing, setRemoving] = useState<DeckMember | null>(null);
  const [handingOver, setHandingOver] = useState<DeckMember | null>(null);

  const changeRole = (member: DeckMember, role: MemberRole) => {
    setStatus("");
    setRole.mutate(
      { deckId: deck.id, userId: member.user_id, role },
      {
        onSuccess: () => setStatus(`${nameOf(member)} is now ${role === "editor" ? "an editor" : "a viewer"}.`),
        onError: (error) => setStatus(errorMessage(error)),
      },
    );
  };

  const list = members.data ?? [];
  return (
    <section className="settings-section" aria-labelledby="members-heading">
      <h2 id="members-heading">
        Members{members.data ? <span className="settings-count"> ({list.length})</span> : null}
      </h2>
      <p className="settings-intro">
        Editors add and edit notes; viewers study and read them. Everyone keeps their own study progress.
      </p>
      {members.isPending ? (
        <p className="settings-muted" role="status">
          Loading members…
        </p>
      ) : members.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(members.error)}</p>
          <button type="button" className="button secondary small" onClick={() => members.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <ul className="member-list" aria-label="Members">
          {list.map((member) => (
            <MemberRow
              key={member.user_id}
              member={member}
              isMe={member.user_id === userId}
              manage={owner && member.role !== "owner"}
              pending={setRole.isPending && setRole.variables?.userId === member.user_id}
              onRole={(role) => changeRole(member, role)}
              onRemove={() => setRemoving(member)}
              onHandOver={() => setHandingOver(member)}
            />
          ))}
        </ul>
      )}
      {owner && list.length === 1 ? (
        <p className="settings-muted">Nobody else is here yet. Create an invite link below to share the deck.</p>
      ) : null}
      <p role="status" className="settings-status">
        {status}
      </p>
      {removing ? (
        <RemoveMemberDialog
          deckId={deck.id}
          member={removing}
          onClose={() => setRemoving(null)}
          onDone={() => setStatus(`${nameOf(removing)} was removed from the deck.`)}
        />
      ) : null}
      {handingOver ? (
        <TransferDialog
          deckId={deck.id}
          member={handingOver}
          onClose={() => setHandingOver(null)}
          onDone={() => setStatus(`${nameOf(handingOver)} is now the owner. You are an editor.`)}
        />
      ) : null}
    </section>
  );
}

function MemberRow({
  member,
  isMe,
  manage,
  pending,
  onRole,
  onRemove,
  onHandOver,
}: {
  member: DeckMember;
  isMe: boolean;
  manage: boolean;
  pending: boolean;
  onRole: (role: MemberRole) => void;
  onRemove: () => void;
  onHandOver: () => void;
}) {
  const selectId = useId();
  const name = nameOf(member);
  return (
    <li className="member">
      <MemberAvatar name={name} path={member.avatar_path} />
      <div className="member-text">
        <span className="member-name">
          {name}
          {isMe ? <span className="settings-muted"> (you)</span> : null}
        </span>
        <span className="member-allows">{roleAllows[member.role]}</span>
      </div>
      {manage ? (
        <div className="member-actions">
          <label htmlFor={selectId} className="visually-hidden">
            Role for {name}
          </label>
          <select
            id={selectId}
            value={member.role}
            disabled={pending}
            aria-busy={pending || undefined}
            onChange={(event) => onRole(event.target.value as MemberRole)}
          >
            <option value="editor">Editor</option>
            <option value="viewer">Viewer</option>
          </select>
          <button type="button" className="button secondary small" onClick={onHandOver}>
            <Crown aria-hidden="true" /> Make owner<span className="visually-hidden"> ({name})</span>
          </button>
          <button type="button" className="button danger-outline small" onClick={onRemove}>
            <UserMinus aria-hidden="true" /> Remove<span className="visually-hidden"> {name}</span>
          </button>
        </div>
      ) : (
        <span className={`role role-${member.role}`}>{roleLabels[member.role]}</span>
      )}
    </li>
  );
}

function RemoveMemberDialog({
  deckId,
  member,
  onClose,
  onDone,
}: {
  deckId: string;
  member: DeckMember;
  onClose: () => void;
  onDone: () => void;
}) {
  const remove = useMutation(useEngramMutations().members.remove());
  const name = nameOf(member);
  return (
    <ConfirmDialog
      title={`Remove ${name}?`}
      confirmLabel="Remove from deck"
      pendingLabel="Removing…"
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(
          { deckId, userId: member.user_id },
          {
            onSuccess: () => {
              onDone();
              onClose();
            },
          },
        )
      }
    >
      <p>{name} loses access to the deck at once, on every device. To come back, they need a new invite link.</p>
    </ConfirmDialog>
  );
}

function TransferDialog({
  deckId,
  member,
  onClose,
  onDone,
}: {
  deckId: string;
  member: DeckMember;
  onClose: () => void;
  onDone: () => void;
}) {
  const transfer = useTransferOwnership();
  const name = nameOf(member);
  return (
    <ConfirmDialog
      title={`Make ${name} the owner?`}
      confirmLabel={`Make ${name} the owner`}
      pendingLabel="Handing over…"
      pending={transfer.isPending}
      error={transfer.error}
      onClose={onClose}
      onConfirm={() => {
        // Awaited, not mutate's callback: this screen turns read-only as the roles change, and the dialog with it.
        transfer.mutateAsync({ deckId, userId: member.user_id }).then(
          () => {
            onDone();
            onClose();
          },
          () => {},
        );
      }}
    >
      <p>
        They become the owner; you become an editor. From then on only {name} changes the deck's settings, members and
        invite links, or deletes it.
      </p>
    </ConfirmDialog>
  );
}
