-- Live updates travel as broadcasts on private Realtime topics, not as
-- postgres_changes: statement triggers on the tables below send one message
-- per statement and topic naming the table, the kind of change and the ids
-- it touched, never a row's contents; clients refetch what they show through
-- RLS. Hosted Realtime checks every postgres_changes insert and update per
-- subscriber on one thread (an import of 10,000 notes was 40,000 checks) and
-- applies no RLS to deletes (a deleted row's key reached every subscriber of
-- its table), so no table is published.
--
-- Topics: `deck:<id>` carries a deck's content (the deck, its members, note types, notes
-- and cards) to its members; `user:<id>` carries a user's own schedule
-- (card_states), answers (review_logs), personal notes, import jobs and memberships
-- (deck_members, a removal included) to that user's devices. The policies
-- further down decide who may join each.

-- Sends one message on a private topic; its payload is
-- `{ table, type: insert | update | delete, ids }`, `ids` null meaning "too
-- many to list: refetch all". PL/pgSQL, whose plan is kept for the
-- connection.
create function private.send_change(p_topic text, p_table text, p_op text, p_ids uuid[]) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object(
      'table', p_table,
      'type', lower(p_op),
      'ids', to_jsonb(p_ids)),
    'change', p_topic, true);
end
$$;

revoke execute on function private.send_change(text, text, text, uuid[]) from anon, authenticated, service_role;

-- The statement trigger behind every announcement. Its arguments:
-- 1. the topic's kind: `deck` (the deck's members) or `user` (the user's devices);
-- 2. the column holding the topic's deck or user id;
-- 3. the column holding the id each message lists;
-- 4. which statements and rows are announced:
--    `always`;
--    `topic-exists`: rows whose deck or user still exists, since a deleted
--      deck is announced itself and a deleted user is heard by nobody;
--    `top-level`: not a statement run by another trigger (cards following
--      their note, schedules added for a new card or member), and no deleted
--      row whose parent (arguments 5 and 6: its table and the column naming
--      it) went in the same statement, as a cascade from a deleted deck, note
--      or card: the change that caused them is announced, so a 10,000-note
--      insert or a deck's deletion stays one message instead of one per
--      note's cards and schedules.
-- Security definer, owned by postgres, so the messages never depend on the
-- caller's INSERT policies on realtime.messages.
create function private.announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_kind text := tg_argv[0];
  v_rule text := tg_argv[3];
  v_pair text := format('select %I as topic_id, %I as id', tg_argv[1], tg_argv[2]);
  v_rows text;
  v_filter text := '';
begin
  if v_rule = 'top-level' and pg_trigger_depth() > 1 then
    return null;
  end if;
  v_rows := case tg_op
    when 'INSERT' then v_pair || ' from new_rows'
    when 'UPDATE' then v_pair || ' from new_rows union ' || v_pair || ' from old_rows'
    when 'DELETE' then v_pair || ' from old_rows o' || case when v_rule = 'top-level' then format(
      ' where exists (select 1 from %s p where p.id = o.%I)', tg_argv[4]::regclass, tg_argv[5]) else '' end
  end;
  if v_rule = 'topic-exists' then
    v_filter := case v_kind
      when 'deck' then 'and exists (select 1 from public.decks d where d.id = changed.topic_id)'
      else 'and exists (select 1 from auth.users u where u.id = changed.topic_id)'
    end;
  end if;
  -- Transition tables are visible to dynamic SQL in the trigger's function. Past
  -- 200 rows of a topic no ids are listed.
  execute format(
    'select private.send_change($1 || '':'' || topic_id::text, $2, $3,
         case when count(*) <= 200 then array_agg(id) end)
       from (%s) changed
       where topic_id is not null %s
       group by topic_id',
    v_rows, v_filter)
  using v_kind, tg_table_name, tg_op;
  return null;
end
$$;

revoke execute on function private.announce_changes() from anon, authenticated, service_role;

-- A user's schedules (card_states) and answers (review_logs), announced as
-- private.announce_changes(user, user_id, card_id or id, top-level,
-- public.cards, card_id) would: every answer announces both, and that
-- function builds its statement from its arguments, so it is planned again
-- at each call. Written out, each statement is planned once per connection.
create function private.announce_study_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- top-level only: schedules and logs leaving with their card are announced by the card
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  if tg_table_name = 'card_states' then
    if tg_op = 'INSERT' then
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.card_id) end)
      from new_rows changed
      where changed.user_id is not null
      group by changed.user_id;
    elsif tg_op = 'UPDATE' then
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.card_id) end)
      from (select n.user_id, n.card_id from new_rows n union select o.user_id, o.card_id from old_rows o) changed
      where changed.user_id is not null
      group by changed.user_id;
    else
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.card_id) end)
      from old_rows changed
      where changed.user_id is not null
        and exists (select 1 from public.cards p where p.id = changed.card_id)
      group by changed.user_id;
    end if;
  else
    if tg_op = 'INSERT' then
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.id) end)
      from new_rows changed
      where changed.user_id is not null
      group by changed.user_id;
    elsif tg_op = 'UPDATE' then
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.id) end)
      from (select n.user_id, n.id from new_rows n union select o.user_id, o.id from old_rows o) changed
      where changed.user_id is not null
      group by changed.user_id;
    else
      perform private.send_change('user:' || changed.user_id::text, tg_table_name, tg_op,
                                  case when count(*) <= 200 then array_agg(changed.id) end)
      from old_rows changed
      where changed.user_id is not null
        and exists (select 1 from public.cards p where p.id = changed.card_id)
      group by changed.user_id;
    end if;
  end if;
  return null;
end
$$;

revoke execute on function private.announce_study_changes() from anon, authenticated, service_role;

create trigger decks_announce_inserts after insert on public.decks
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'id', 'id', 'always');
create trigger decks_announce_updates after update on public.decks
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'id', 'id', 'always');
create trigger decks_announce_deletes after delete on public.decks
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'id', 'id', 'always');

-- A membership is news for the deck (its members list) and for the member
-- (decks shared with them, their role, their removal), on both topics.
create trigger deck_members_announce_inserts_to_deck after insert on public.deck_members
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'user_id', 'topic-exists');
create trigger deck_members_announce_updates_to_deck after update on public.deck_members
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'user_id', 'topic-exists');
create trigger deck_members_announce_deletes_to_deck after delete on public.deck_members
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'user_id', 'topic-exists');

create trigger deck_members_announce_inserts_to_user after insert on public.deck_members
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'topic-exists');
create trigger deck_members_announce_updates_to_user after update on public.deck_members
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'topic-exists');
create trigger deck_members_announce_deletes_to_user after delete on public.deck_members
  referencing old table as old_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'topic-exists');

-- A note moved to another deck is an update on both decks' topics.
create trigger notes_announce_inserts after insert on public.notes
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger notes_announce_updates after update on public.notes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger notes_announce_deletes after delete on public.notes
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');

create trigger note_types_announce_inserts after insert on public.note_types
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger note_types_announce_updates after update on public.note_types
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger note_types_announce_deletes after delete on public.note_types
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');

create trigger cards_announce_inserts after insert on public.cards
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.notes', 'note_id');
create trigger cards_announce_updates after update on public.cards
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.notes', 'note_id');
create trigger cards_announce_deletes after delete on public.cards
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.notes', 'note_id');

create trigger card_states_announce_inserts after insert on public.card_states
  referencing new table as new_rows
  for each statement execute function private.announce_study_changes();
create trigger card_states_announce_updates after update on public.card_states
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_study_changes();
create trigger card_states_announce_deletes after delete on public.card_states
  referencing old table as old_rows
  for each statement execute function private.announce_study_changes();

create trigger review_logs_announce_inserts after insert on public.review_logs
  referencing new table as new_rows
  for each statement execute function private.announce_study_changes();
create trigger review_logs_announce_updates after update on public.review_logs
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_study_changes();
create trigger review_logs_announce_deletes after delete on public.review_logs
  referencing old table as old_rows
  for each statement execute function private.announce_study_changes();

-- More new cards today (extend_study_day) changes a deck's counts on the user's devices.
create trigger study_day_extras_announce_inserts after insert on public.study_day_extras
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'always');
create trigger study_day_extras_announce_updates after update on public.study_day_extras
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'always');

create trigger import_jobs_announce_inserts after insert on public.import_jobs
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'id', 'always');
create trigger import_jobs_announce_updates after update on public.import_jobs
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'id', 'always');
create trigger import_jobs_announce_deletes after delete on public.import_jobs
  referencing old table as old_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'id', 'always');

-- A user's personal layer on notes goes to their own devices only; ids are the notes'.
create trigger personal_notes_announce_inserts after insert on public.personal_notes
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');
create trigger personal_notes_announce_updates after update on public.personal_notes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');
create trigger personal_notes_announce_deletes after delete on public.personal_notes
  referencing old table as old_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');

-- Who may join which topic. Realtime checks these policies when a client
-- joins a private channel and again when it sends a refreshed access token,
-- not on every message: a member removed while subscribed keeps hearing the
-- deck's "something changed" (ids only) until then.

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
