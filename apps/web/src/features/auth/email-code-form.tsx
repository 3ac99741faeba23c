/**
 * The code an email carries, typed in instead of opening its link: it works in
 * any browser or app, where the link works only in the browser that asked.
 */
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { errorMessage } from "../../lib/error-messages.js";
import { useNavigate } from "../../lib/navigation.js";
import { useEngramMutations } from "../../session/mutations.js";
import { callbackUrl } from "../../session/places.js";

const codeFields = ["code"] as const;

export function EmailCodeForm({
  email,
  next,
  resend,
  follow = true,
}: {
  email: string;
  next: string;
  /** Offers to send the sign-up confirmation again. */
  resend?: "signup";
  /** Goes to `next` once signed in; off where the page itself follows the session (sign-in, for its second step). */
  follow?: boolean;
}) {
  const mutations = useEngramMutations();
  const verify = useMutation(mutations.auth.verifyEmailCode());
  const sendAgain = useMutation(mutations.auth.resendConfirmation());
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [resent, setResent] = useState("");
  const errors = formErrors(verify.error, codeFields);

  return (
    <form
      ref={formRef}
      noValidate
      className="email-code-form"
      onSubmit={(event) => {
        event.preventDefault();
        setResent("");
        const code = textOf(new FormData(event.currentTarget), "code");
        verify.mutate({ email, code }, { onSuccess: () => (follow ? navigate(next, { replace: true }) : undefined) });
      }}
    >
      <TextField
        name="code"
        label="Enter the code from the email"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={12}
        spellCheck={false}
        required
        error={errors.fields.code ?? (verify.error ? errors.summary[0]?.message : undefined)}
      />
      <div className="form-actions">
        <SubmitButton pending={verify.isPending} pendingLabel="Checking…">
          Continue with the code
        </SubmitButton>
        {resend ? (
          <button
            type="button"
            className="button secondary"
            disabled={sendAgain.isPending}
            onClick={() => {
              setResent("");
              verify.reset();
              sendAgain.mutate(
                { email, redirectTo: `${callbackUrl(next)}&flow=signup` },
                { onSuccess: () => setResent("We sent a new email. Its code replaces the old one.") },
              );
            }}
          >
            {sendAgain.isPending ? "Sending…" : "Send the email again"}
          </button>
        ) : null}
      </div>
      <p role="status" className="field-hint">
        {resent}
      </p>
      {sendAgain.isError ? (
        <p role="alert" className="notice">
          {errorMessage(sendAgain.error)}
        </p>
      ) : null}
    </form>
  );
}
