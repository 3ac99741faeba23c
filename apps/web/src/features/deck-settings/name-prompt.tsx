/**
 * Before a deck goes public or an invite link is made, the user names
 * themselves if they never did: otherwise others would see the part of their
 * email before the @ (docs/product.md §2, "The first minute").
 */
import { displayNameChosen, EngramError } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { NameDialog } from "../../forms/name-dialog.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { useSession } from "../../session/session-context.js";

const emptyName = new EngramError("validation", "Enter the name others see.", {
  field: "name",
  detail: [{ field: "name", message: "Enter the name others see, such as your first name." }],
});

/**
 * `ask(then)` runs `then` at once when the name was chosen, else after the
 * user saves one in the dialog (closing it runs nothing). Render `dialog`.
 */
export function useNamePrompt(continueLabel: string): { ask: (then: () => void) => void; dialog: ReactNode } {
  const session = useSession();
  const profile = useQuery(useEngramQueries().profile.get());
  const choose = useMutation(useEngramMutations().profile.chooseName());
  const [waiting, setWaiting] = useState<{ then: () => void } | null>(null);
  const [empty, setEmpty] = useState(false);
  const user = session.session?.user;
  // Until the profile has loaded there is nothing to compare; the step goes ahead rather than wait.
  const needed = Boolean(profile.data && user && !displayNameChosen(profile.data, user));

  const close = () => {
    setWaiting(null);
    setEmpty(false);
    choose.reset();
  };
  const dialog = waiting ? (
    <NameDialog
      title="How should others see your name?"
      description="People who find your deck or join it see this name beside it. You can change it in Settings."
      label="Your name"
      defaultValue={profile.data?.display_name ?? ""}
      maxLength={80}
      hint="Up to 80 characters."
      errorFields={["name", "display_name"]}
      submitLabel={continueLabel}
      pendingLabel="Saving…"
      pending={choose.isPending}
      error={empty ? emptyName : choose.error}
      onSubmit={(name) => {
        const trimmed = name.trim();
        setEmpty(!trimmed);
        if (!trimmed) return;
        choose.mutate(trimmed, {
          onSuccess: () => {
            const { then } = waiting;
            close();
            then();
          },
        });
      }}
      onClose={close}
    />
  ) : null;

  return {
    ask: (then) => (needed ? setWaiting({ then }) : then()),
    dialog,
  };
}
