-- Tables whose changes the app listens to; Realtime applies each subscriber's
-- RLS before delivering a change.
alter publication supabase_realtime add table
  public.decks, public.deck_members, public.notes, public.cards,
  public.card_states, public.review_logs, public.import_jobs;

-- Deck rooms: the members of a deck receive and send presence and broadcasts
-- on the private Realtime topic `deck:<id>`.
create function private.deck_id_of_topic(p_topic text) returns uuid
language sql immutable
set search_path = ''
as $$
  select case when p_topic ~* '^deck:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then substr(p_topic, 6)::uuid end
$$;

revoke execute on function private.deck_id_of_topic from anon;

create policy "members receive deck room messages" on realtime.messages
  for select to authenticated
  using (private.deck_role(private.deck_id_of_topic((select realtime.topic()))) is not null);

create policy "members send deck room messages" on realtime.messages
  for insert to authenticated
  with check (private.deck_role(private.deck_id_of_topic((select realtime.topic()))) is not null);

-- The user's own channel: the private Realtime topic `user:<id>`, where each of
-- a user's devices listens and any of them may send. A device that signs out
-- everywhere says so here, so the others check their session at once instead
-- of working on until their access token runs out. Broadcast only: nobody
-- needs presence on it, and nobody else may join it.
create policy "users receive broadcasts on their own channel" on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text
  );

create policy "users send broadcasts on their own channel" on realtime.messages
  for insert to authenticated
  with check (
    realtime.messages.extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text
  );

-- Private channels (deck rooms, the user's own channel) for two-factor sessions only, as every table in public.
create policy "two-factor sessions only" on realtime.messages as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));
