/**
 * `/invite/:token`: what the link offers (deck, owner, size, role) before
 * joining, for visitors signed in or not. Signed-out visitors sign up or in and
 * come back here; links that no longer work say why and whom to ask.
 */
import type { InvitePreview, InviteStatus } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { BookOpen, CircleAlert, Layers, UserRound, UsersRound } from "lucide-react";
import type { ReactNode } from "react";
import { errorCode, errorMessage } from "../../lib/error-messages.js";
import { Link, useNavigate, useParams } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";
import { withNext } from "../../session/places.js";
import { useSession } from "../../session/session-context.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import "./invite.css";

const numberFormat = new Intl.NumberFormat();
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });

const roleOffers: Record<InvitePreview["role"], { name: string; allows: string }> = {
  editor: { name: "an editor", allows: "You can study the deck and add, edit and delete its notes." },
  viewer: { name: "a viewer", allows: "You can study the deck and read its notes; its owner and editors change them." },
};

export function InvitePage() {
  const { token = "" } = useParams();
  const preview = useQuery({ ...useEngramQueries().invites.preview(token), retry: false });

  if (preview.isPending) return <Loading label="Opening the invite…" />;
  if (preview.isError) {
    const code = errorCode(preview.error);
    if (code === "not-found" || code === "validation") return <UnknownInvite />;
    return (
      <InviteCard title="This invite didn't open" icon="alert">
        <p role="alert">{errorMessage(preview.error)}</p>
        <div className="invite-actions">
          <button type="button" className="button primary" onClick={() => preview.refetch()}>
            Try again
          </button>
        </div>
      </InviteCard>
    );
  }
  const invite = preview.data;
  if (invite.is_member) return <AlreadyMember invite={invite} />;
  if (invite.status !== "active") return <DeadInvite invite={invite} status={invite.status} />;
  return <ActiveInvite token={token} invite={invite} onStale={() => void preview.refetch()} />;
}

function InviteCard({
  title,
  eyebrow,
  icon,
  children,
}: {
  title: string;
  eyebrow?: string;
  icon?: "alert";
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className="invite-page">
      <article className="invite-card" aria-labelledby="invite-title">
        {icon === "alert" ? <CircleAlert className="invite-icon" aria-hidden="true" /> : null}
        {eyebrow ? <p className="invite-eyebrow">{eyebrow}</p> : null}
        <h1 id="invite-title">{title}</h1>
        {children}
      </article>
    </div>
  );
}

/** A preview that shows what the deck holds: a working link's, or a member's. */
type OpenPreview = Extract<InvitePreview, { deck_id: string }>;

function DeckFacts({ invite }: { invite: OpenPreview }) {
  return (
    <ul className="invite-facts">
      <li>
        <UserRound aria-hidden="true" /> Owner: {invite.owner_name || "someone without a display name"}
      </li>
      <li>
        <Layers aria-hidden="true" /> {numberFormat.format(invite.note_count)}{" "}
        {invite.note_count === 1 ? "note" : "notes"}
      </li>
    </ul>
  );
}

function ActiveInvite({ token, invite, onStale }: { token: string; invite: OpenPreview; onStale: () => void }) {
  const session = useSession();
  const offer = roleOffers[invite.role];
  const here = `/invite/${token}`;
  return (
    <InviteCard title={invite.deck_name} eyebrow="You're invited to join">
      {invite.description ? <p className="invite-description">{invite.description}</p> : null}
      <DeckFacts invite={invite} />
      <div className="invite-role-offer">
        <UsersRound aria-hidden="true" />
        <div>
          <p className="invite-role-name">You join as {offer.name}</p>
          <p>{offer.allows} Your study progress is your own; other members see only your name and picture.</p>
        </div>
      </div>
      {session.status === "loading" ? null : session.status === "signed-in" ? (
        <JoinButton token={token} onStale={onStale} />
      ) : (
        <>
          <div className="invite-actions">
            <Link className="button primary" to={withNext("/sign-up", here)}>
              Sign up to join
            </Link>
            <Link className="button secondary" to={withNext("/sign-in", here)}>
              Sign in to join
            </Link>
          </div>
          <p className="invite-small">You come back to this page afterwards to join.</p>
        </>
      )}
      <p className="invite-small">This link works until {day.format(new Date(invite.expires_at))}.</p>
    </InviteCard>
  );
}

function JoinButton({ token, onStale }: { token: string; onStale: () => void }) {
  const accept = useMutation(useEngramMutations().invites.accept());
  const navigate = useNavigate();
  return (
    <>
      <div role="alert">{accept.isError ? <p className="notice">{errorMessage(accept.error)}</p> : null}</div>
      <div className="invite-actions">
        <button
          type="button"
          className="button primary"
          disabled={accept.isPending}
          aria-busy={accept.isPending || undefined}
          onClick={() =>
            accept.mutateAsync(token).then(
              (deckId) => navigate(`/decks/${deckId}`),
              // The link may have stopped working since it was opened: show why.
              () => onStale(),
            )
          }
        >
          {accept.isPending ? "Joining…" : "Join deck"}
        </button>
      </div>
    </>
  );
}

function AlreadyMember({ invite }: { invite: OpenPreview }) {
  return (
    <InviteCard title="You're already in this deck" eyebrow={invite.deck_name}>
      <p>“{invite.deck_name}” is in your decks already, so this link has nothing more to give you.</p>
      <div className="invite-actions">
        <Link className="button primary" to={`/decks/${invite.deck_id}`}>
          <BookOpen aria-hidden="true" /> Open deck
        </Link>
      </div>
    </InviteCard>
  );
}

const deadTitles: Record<Exclude<InviteStatus, "active">, string> = {
  revoked: "This invite link was revoked",
  expired: "This invite link has expired",
  used_up: "This invite link has been used up",
};

function DeadInvite({ invite, status }: { invite: InvitePreview; status: Exclude<InviteStatus, "active"> }) {
  const owner = invite.owner_name || "the deck's owner";
  const why =
    status === "revoked"
      ? "Its owner turned it off, so nobody can join with it any more."
      : status === "expired"
        ? `It stopped working on ${day.format(new Date(invite.expires_at))}.`
        : "It has been used as many times as it allowed.";
  return (
    <InviteCard title={deadTitles[status]} eyebrow={invite.deck_name} icon="alert">
      <p>{why}</p>
      <p className="invite-ask">Ask {owner} for a new link.</p>
      <ElsewhereLinks />
    </InviteCard>
  );
}

function UnknownInvite() {
  return (
    <InviteCard title="This invite link doesn't work" icon="alert">
      <p>There is no invite at this address. Check that the whole link was copied.</p>
      <p className="invite-ask">Ask the person who sent it for a new link.</p>
      <ElsewhereLinks />
    </InviteCard>
  );
}

function ElsewhereLinks() {
  const session = useSession();
  return (
    <div className="invite-actions">
      {session.status === "signed-in" ? (
        <Link className="button secondary" to="/decks">
          Go to your decks
        </Link>
      ) : (
        <Link className="button secondary" to="/">
          What is Engram?
        </Link>
      )}
    </div>
  );
}
