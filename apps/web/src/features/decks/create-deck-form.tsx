import { FileUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorSummary } from "../../forms/error-summary.js";
import { formErrors, textOf } from "../../forms/form-errors.js";
import { SubmitButton } from "../../forms/submit-button.js";
import { TextField } from "../../forms/text-field.js";
import { Link } from "../../lib/navigation.js";
import { useCreateDeck } from "./use-decks.js";

const fields = ["name"] as const;

export function CreateDeckForm({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!focusOnMount) return;
    // After the frame: the layout moves focus to <main> on every navigation, in an effect that runs after this one.
    const frame = requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLInputElement>("input[name=name]")?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, [focusOnMount]);
  const create = useCreateDeck();
  const [created, setCreated] = useState<string | null>(null);
  const errors = formErrors(create.error, fields);

  return (
    <form
      ref={formRef}
      className="create-deck"
      aria-label="Create a deck"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setCreated(null);
        create.mutate(
          { name: textOf(new FormData(form), "name") },
          {
            onSuccess: (deck) => {
              form.reset();
              setCreated(deck.name);
            },
          },
        );
      }}
    >
      <ErrorSummary errors={errors} formRef={formRef} />
      <div className="inline-form">
        <TextField name="name" label="New deck name" autoComplete="off" required error={errors.fields.name} />
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          Create deck
        </SubmitButton>
        <Link className="button secondary" to="/import">
          <FileUp aria-hidden="true" /> Import
        </Link>
      </div>
      <p role="status" className="visually-hidden">
        {created ? `Created ${created}.` : ""}
      </p>
    </form>
  );
}
