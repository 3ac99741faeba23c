/** Invite links (owners only): make one with a role, a lifetime and a use limit; copy it; see and revoke them. */
import type { Invite, InviteStatus } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { Ban, Copy, Link2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { ErrorSummary } from "../../forms/error-summary.js";
import { type FormErrors, formErrors, noErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { errorCode, errorMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import { useNamePrompt } from "./name-prompt.js";
import { roleLabels } from "./roles.js";
import { useInvites, useMembers } from "./use-deck-settings.js";

/** At most this many invites may be active at once (the database counts them too). */
const activeLimit = 20;
const fields = ["role", "expires_in_days", "max_uses"] as const;
const quotaMessage = `A deck can have ${activeLimit} active invite links at most. Revoke one you no longer need to make another.`;
const statusLabels: Record<InviteStatus, string> = {
  active: "Active",
  used_up: "Used up",
  expired: "Expired",
  revoked: "Revoked",
};
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const inviteUrl = (token: string) => `${window.location.origin}/invite/${token}`;

export function InvitesSection({ deckId }: { deckId: string }) {
  const invites = useInvites(deckId, true);
  // Someone joining (the members list changes live) used one of these links: its count and status moved.
  const membersChangedAt = useMembers(deckId).dataUpdatedAt;
  const refetchInvites = invites.refetch;
  const seenMembersAt = useRef(0);
  useEffect(() => {
    const first = seenMembersAt.current === 0;
    seenMembersAt.current = membersChangedAt;
    if (!first && membersChangedAt) void refetchInvites();
  }, [membersChangedAt, refetchInvites]);
  const [status, setStatus] = useState("");
  const [created, setCreated] = useState<Invite | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const active = (invites.data ?? []).filter((invite) => invite.status === "active").length;

  const copy = (invite: Invite) => {
    navigator.clipboard.writeText(inviteUrl(invite.token)).then(
      () => setStatus("Link copied. Paste it in a message to whoever you are inviting."),
      () => setStatus("Couldn't copy the link here. Select it and copy it yourself."),
    );
  };

  return (
    <section className="settings-section" aria-labelledby="invites-heading">
      <h2 id="invites-heading">Invite links</h2>
      <p className="settings-intro">
        Anyone with a link can join as the role it gives, until it expires, is used up or you revoke it.
      </p>
      <CreateInviteForm
        deckId={deckId}
        full={active >= activeLimit}
        onCreated={(invite) => {
          setCreated(invite);
          copy(invite);
        }}
      />
      {created ? <NewLink invite={created} onCopy={() => copy(created)} /> : null}
      <p role="status" className="settings-status">
        {status}
      </p>

      <h3 className="settings-subheading">Links made for this deck</h3>
      {invites.isPending ? (
        <p className="settings-muted">Loading invite links…</p>
      ) : invites.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(invites.error)}</p>
          <button type="button" className="button secondary small" onClick={() => invites.refetch()}>
            Try again
          </button>
        </div>
      ) : invites.data.length === 0 ? (
        <p className="settings-muted">No invite links yet.</p>
      ) : (
        <ul className="invite-list" aria-label="Invite links">
          {invites.data.map((invite) => (
            <InviteRow
              key={invite.id}
              invite={invite}
              onCopy={() => copy(invite)}
              onRevoke={() => setRevoking(invite)}
            />
          ))}
        </ul>
      )}
      {revoking ? (
        <RevokeDialog
          invite={revoking}
          onClose={() => setRevoking(null)}
          onDone={() => {
            setStatus("Link revoked. Nobody can join with it any more.");
            if (created?.id === revoking.id) setCreated(null);
          }}
        />
      ) : null}
    </section>
  );
}

function inviteErrors(error: unknown): FormErrors {
  if (errorCode(error) === "quota-exceeded") return { fields: {}, summary: [{ message: quotaMessage }] };
  return formErrors(error, fields);
}

function CreateInviteForm({
  deckId,
  full,
  onCreated,
}: {
  deckId: string;
  /** As many links are active as a deck may have: said before anyone tries (and fails) to make one more. */
  full: boolean;
  onCreated: (invite: Invite) => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const create = useMutation(useEngramMutations().invites.create());
  const namePrompt = useNamePrompt("Save and create the link");
  const roleId = useId();
  // A refusal for being over the limit stops applying once a link is revoked.
  const errors = !full && errorCode(create.error) === "quota-exceeded" ? noErrors : inviteErrors(create.error);
  return (
    <>
      <form
        ref={formRef}
        noValidate
        className="invite-form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const maxUses = textOf(form, "max_uses").trim();
          const input = {
            role: textOf(form, "role") as "editor" | "viewer",
            expires_in_days: Number(textOf(form, "expires_in_days")),
            max_uses: maxUses === "" ? null : Number(maxUses),
          };
          // Whoever opens the link sees the owner's name: they choose it first.
          namePrompt.ask(() => create.mutate({ deckId, input }, { onSuccess: onCreated }));
        }}
      >
        <ErrorSummary errors={errors} formRef={formRef} />
        {full && errors.summary.length === 0 ? <p className="notice">{quotaMessage}</p> : null}
        <div className="invite-fields">
          <div className="field">
            <label htmlFor={roleId}>Joins as</label>
            <p id={`${roleId}-hint`} className="field-hint">
              Editors also add and edit notes.
            </p>
            <select id={roleId} name="role" data-field="role" defaultValue="viewer" aria-describedby={`${roleId}-hint`}>
              <option value="viewer">Viewer</option>
              <option value="editor">Editor</option>
            </select>
          </div>
          <TextField
            name="expires_in_days"
            label="Expires after (days)"
            type="number"
            inputMode="numeric"
            min={1}
            max={30}
            step={1}
            defaultValue={7}
            hint="1 to 30."
            required
            error={errors.fields.expires_in_days}
          />
          <TextField
            name="max_uses"
            label="Maximum uses"
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            hint="Empty: no limit."
            error={errors.fields.max_uses}
          />
        </div>
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          <Link2 aria-hidden="true" /> Create invite link
        </SubmitButton>
      </form>
      {/* Beside the form: the dialog's own form must not submit this one. */}
      {namePrompt.dialog}
    </>
  );
}

function NewLink({ invite, onCopy }: { invite: Invite; onCopy: () => void }) {
  const id = useId();
  return (
    <div className="new-link">
      <label htmlFor={id}>New invite link ({roleLabels[invite.role].toLowerCase()})</label>
      <div className="new-link-row">
        <input id={id} readOnly value={inviteUrl(invite.token)} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button secondary" onClick={onCopy}>
          <Copy aria-hidden="true" /> Copy link
        </button>
      </div>
    </div>
  );
}

function usesText(invite: Invite): string {
  const times = invite.uses === 1 ? "1 time" : `${invite.uses} times`;
  return invite.max_uses === null ? `Used ${times}, no limit` : `Used ${invite.uses} of ${invite.max_uses}`;
}

function timeText(invite: Invite): string {
  if (invite.status === "revoked" && invite.revoked_at) return `Revoked ${when.format(new Date(invite.revoked_at))}`;
  const expires = when.format(new Date(invite.expires_at));
  return invite.status === "expired" ? `Expired ${expires}` : `Expires ${expires}`;
}

function InviteRow({ invite, onCopy, onRevoke }: { invite: Invite; onCopy: () => void; onRevoke: () => void }) {
  const label = `${roleLabels[invite.role]} link, ${statusLabels[invite.status].toLowerCase()}`;
  return (
    <li className={`invite invite-${invite.status}`} aria-label={label}>
      <div className="invite-text">
        <span className="invite-title">
          <span className="invite-role">{roleLabels[invite.role]}</span>
          <span className={`invite-status status-${invite.status}`}>{statusLabels[invite.status]}</span>
        </span>
        <span className="settings-muted">
          {usesText(invite)} · {timeText(invite)}
        </span>
      </div>
      {invite.status === "active" ? (
        <div className="invite-actions">
          <button type="button" className="button secondary small" onClick={onCopy}>
            <Copy aria-hidden="true" /> Copy<span className="visually-hidden"> link</span>
          </button>
          <button type="button" className="button danger-outline small" onClick={onRevoke}>
            <Ban aria-hidden="true" /> Revoke<span className="visually-hidden"> link</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}

function RevokeDialog({ invite, onClose, onDone }: { invite: Invite; onClose: () => void; onDone: () => void }) {
  const revoke = useMutation(useEngramMutations().invites.revoke());
  return (
    <ConfirmDialog
      title="Revoke this invite link?"
      confirmLabel="Revoke link"
      pendingLabel="Revoking…"
      cancelLabel="Keep link"
      pending={revoke.isPending}
      error={revoke.error}
      onClose={onClose}
      onConfirm={() =>
        revoke.mutate(invite.id, {
          onSuccess: () => {
            onDone();
            onClose();
          },
        })
      }
    >
      <p>
        Nobody can join with it any more ({usesText(invite).toLowerCase()}). People who already joined stay in the deck.
      </p>
    </ConfirmDialog>
  );
}
