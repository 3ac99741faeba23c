/**
 * Two-factor sign-in with an authenticator app: enrol (scan the QR code or
 * type the key, then confirm with a code), see the app that is set up, and
 * remove it. A lost device is recovered from here while still signed in:
 * remove the app, then set up the new one.
 */
import type { TotpEnrollment, TotpFactor } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { onDemand } from "../../lib/preloadable.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { SavedStatus, SettingsSection } from "./settings-section.js";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function TwoFactorSection() {
  const factors = useQuery(useEngramQueries().auth.factors());
  const [status, setStatus] = useState("");
  const verified = factors.data?.filter((factor) => factor.status === "verified") ?? [];

  return (
    <SettingsSection
      id="two-factor"
      title="Two-factor sign-in"
      intro="After your password, Engram also asks for a code from an authenticator app on your phone, so a stolen password alone cannot open your account."
    >
      {factors.isPending ? <p className="muted">Checking…</p> : null}
      {factors.isError ? (
        <p role="alert" className="field-error">
          {errorMessage(factors.error)}
        </p>
      ) : null}
      {factors.isSuccess && verified.length > 0 ? (
        <ul className="factor-list" aria-label="Authenticator apps">
          {verified.map((factor) => (
            <FactorItem key={factor.id} factor={factor} onRemoved={() => setStatus("Two-factor sign-in is off.")} />
          ))}
        </ul>
      ) : null}
      {factors.isSuccess && verified.length === 0 ? (
        <Enrol onEnabled={() => setStatus("Two-factor sign-in is on. Engram asks for a code at your next sign-in.")} />
      ) : null}
      {verified.length > 0 ? (
        <p className="settings-intro factor-recovery">
          Lost your device? Remove the app here while you are still signed in, then set up two-factor sign-in again on
          your new device.
        </p>
      ) : null}
      <SavedStatus message={status} />
    </SettingsSection>
  );
}

const RemoveFactor = onDemand(() => import("./confirm-dialogs.js").then((m) => m.RemoveFactor));
// The second step of setting up, loaded with the press that starts it: its code arrives with GoTrue's answer.
const ConfirmEnrolment = onDemand(
  () => import("./confirm-enrolment.js").then((m) => m.ConfirmEnrolment),
  () => <p className="muted">Starting…</p>,
);

function FactorItem({ factor, onRemoved }: { factor: TotpFactor; onRemoved: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="factor">
      <ShieldCheck aria-hidden="true" className="factor-icon" />
      <span className="factor-text">
        <strong>{factor.friendlyName ?? "Authenticator app"}</strong>
        <span className="muted">Added {dateFormat.format(new Date(factor.createdAt))}</span>
      </span>
      <button type="button" className="button danger-outline small" onClick={() => setConfirming(true)}>
        Remove
      </button>
      {confirming ? (
        <RemoveFactor
          factor={factor}
          onClose={() => setConfirming(false)}
          onRemoved={() => {
            setConfirming(false);
            onRemoved();
          }}
        />
      ) : null}
    </li>
  );
}

function Enrol({ onEnabled }: { onEnabled: () => void }) {
  const start = useMutation(useEngramMutations().auth.mfa.enrollTotp());
  const [enrolment, setEnrolment] = useState<TotpEnrollment | null>(null);

  if (!enrolment) {
    return (
      <div className="settings-actions">
        <button
          type="button"
          className="button secondary"
          disabled={start.isPending}
          onClick={() => {
            ConfirmEnrolment.preload().catch(() => undefined);
            start.mutate({ friendlyName: "Authenticator app" }, { onSuccess: setEnrolment });
          }}
        >
          <ShieldCheck aria-hidden="true" /> {start.isPending ? "Starting…" : "Set up two-factor sign-in"}
        </button>
        {start.error ? (
          <p role="alert" className="field-error">
            {errorMessage(start.error)}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <ConfirmEnrolment
      enrolment={enrolment}
      onCancel={() => setEnrolment(null)}
      onEnabled={() => {
        setEnrolment(null);
        onEnabled();
      }}
    />
  );
}
