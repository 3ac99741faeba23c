/** The settings' confirmations, each loaded with its first opening, with the dialog library. */
import type { TotpFactor } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../../forms/confirm-dialog.js";
import { TextField } from "../../forms/text-field.js";
import { errorMessage } from "../../lib/error-messages.js";
import { useNavigate } from "../../lib/navigation.js";
import { useEngramMutations } from "../../session/mutations.js";
import { Dialog } from "../../ui/dialog.js";
import type { AccountDeletedState } from "./delete-account-section.js";
import { useDeleteAccount, useSignOutEverywhere } from "./use-settings.js";

export function ConfirmSignOut({ onClose }: { onClose: () => void }) {
  const signOut = useSignOutEverywhere();
  return (
    <ConfirmDialog
      title="Sign out of all devices?"
      confirmLabel="Sign out everywhere"
      pendingLabel="Signing out…"
      pending={signOut.isPending}
      error={signOut.error}
      onConfirm={() => signOut.mutate()}
      onClose={onClose}
    >
      <p>
        You will be signed out here and on every other device within seconds. Answers a device has not sent yet are kept
        there and sent after you sign in again.
      </p>
    </ConfirmDialog>
  );
}

export function ConfirmDelete({ email, onClose }: { email: string; onClose: () => void }) {
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [mismatch, setMismatch] = useState(false);

  return (
    <Dialog title="Delete your account?" onClose={onClose}>
      <p>This deletes, for good:</p>
      <ul className="delete-list">
        <li>your profile, picture and settings;</li>
        <li>your study progress and review history;</li>
        <li>every deck you own, with its notes and media, also for the people you share it with.</li>
      </ul>
      <p>Decks other people own stay theirs. To keep a deck you own, hand it to a member first in its settings.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const matches = typed.trim().toLowerCase() === email.toLowerCase();
          setMismatch(!matches);
          if (!matches) return;
          // Not mutate's own onSuccess: signing out unmounts this screen first, which would drop it.
          remove.mutateAsync().then(
            () => {
              const state: AccountDeletedState = { accountDeleted: true };
              navigate("/", { replace: true, state });
            },
            () => undefined,
          );
        }}
      >
        <TextField
          name="confirm_email"
          label={`Type ${email} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          error={mismatch ? "Type your email exactly as shown above." : undefined}
        />
        {remove.error ? (
          <p role="alert" className="field-error">
            {errorMessage(remove.error)} Your account is unchanged.
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button danger"
            disabled={remove.isPending}
            aria-busy={remove.isPending || undefined}
          >
            {remove.isPending ? "Deleting…" : "Delete my account"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function RemoveFactor({
  factor,
  onClose,
  onRemoved,
}: {
  factor: TotpFactor;
  onClose: () => void;
  onRemoved: () => void;
}) {
  // Removing it refreshes the factors and the session's level.
  const remove = useMutation(useEngramMutations().auth.mfa.unenroll());
  return (
    <ConfirmDialog
      title="Remove the authenticator app?"
      confirmLabel="Remove"
      pendingLabel="Removing…"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(factor.id, { onSuccess: onRemoved })}
      onClose={onClose}
    >
      <p>Signing in will need only your password until you set up two-factor sign-in again.</p>
    </ConfirmDialog>
  );
}
