-- What the API roles may do with each table, granted explicitly. New hosted
-- projects no longer grant new tables to anon, authenticated and service_role
-- by default, and older ones grant them everything; revoking first and then
-- granting makes both end the same. Row-level security still decides which
-- rows; these grants decide which statements (and, for UPDATE, which columns)
-- are possible at all. Functions are granted where they are created.
--
-- Later migrations grant what they create, and a change to what a role may do
-- on one of these tables belongs here as well as in its own migration.

revoke all on public.profiles, public.decks, public.deck_members, public.deck_invites, public.notes,
  public.cards, public.card_states, public.review_logs, public.import_jobs
  from anon, authenticated, service_role;

-- The service role (edge functions, administration) bypasses RLS and may write everything.
grant select, insert, update, delete on public.profiles, public.decks, public.deck_members,
  public.deck_invites, public.notes, public.cards, public.card_states, public.review_logs,
  public.import_jobs
  to service_role;

-- Anyone may read what the policies show them of public decks.
grant select on public.profiles, public.decks, public.deck_members, public.notes, public.cards to anon;

-- profiles: read and edit one's own settings; created by the sign-up trigger.
grant select on public.profiles to authenticated;
grant update (display_name, avatar_path, timezone, day_starts_at, desired_retention, fsrs_params,
  new_per_day, reviews_per_day)
  on public.profiles to authenticated;

-- decks: created and deleted by their owner; owner_id is fixed.
grant select, insert, delete on public.decks to authenticated;
grant update (name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at)
  on public.decks to authenticated;

-- deck_members: joined through invites (security definer); owners change roles and remove members.
grant select, delete on public.deck_members to authenticated;
grant update (role) on public.deck_members to authenticated;

-- deck_invites: created and accepted through RPCs; owners read, revoke and delete them.
grant select, delete on public.deck_invites to authenticated;
grant update (revoked_at) on public.deck_invites to authenticated;

-- notes: editors add, edit and delete; the deck and author of a note are fixed.
grant select, insert, delete on public.notes to authenticated;
grant update (kind, fields, tags) on public.notes to authenticated;

-- Derived or written through RPCs: read only.
grant select on public.cards, public.card_states, public.review_logs, public.import_jobs to authenticated;
