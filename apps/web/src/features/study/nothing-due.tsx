import { useQuery } from "@tanstack/react-query";
import { CustomStudyButton } from "../../custom-study/custom-study-button.js";
import { useEngramQueries } from "../../session/factories.js";
import { LeaveStudy } from "./leave-study.js";
import { nextDue } from "./next-due.js";

/** Nothing to study now: says so, and when the next card will be due. */
export function NothingDue({ deckId }: { deckId: string | undefined }) {
  const queries = useEngramQueries();
  const profile = useQuery({ ...queries.profile.get(), retry: false });
  const schedules = useQuery({ ...queries.cards.schedules({ deckId, limit: 1000 }), retry: false });
  const next = profile.data && schedules.data ? nextDue(schedules.data, profile.data) : null;
  const known = profile.isSuccess && schedules.isSuccess;

  return (
    <section className="study-state" aria-labelledby="nothing-due-heading">
      <h2 id="nothing-due-heading">Nothing due right now</h2>
      <p role="status">
        {!known
          ? profile.isError || schedules.isError
            ? "You're all caught up for now."
            : "Checking when your next card is due…"
          : next === null
            ? deckId
              ? "This deck has no cards to study yet. Add some notes to start."
              : "You have no cards to study yet. Add notes to a deck to start."
            : next.kind === "review"
              ? `Next review ${next.words}.`
              : `You've seen today's new cards. More new cards ${next.words}.`}
      </p>
      {deckId ? (
        <p className="study-state-actions">
          <CustomStudyButton deckId={deckId} />
        </p>
      ) : null}
      <LeaveStudy deckId={deckId} />
    </section>
  );
}
