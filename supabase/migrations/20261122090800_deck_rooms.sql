-- Deck rooms: the members of a deck receive and send presence and broadcasts
-- on the private Realtime topic `deck:<id>`.
create function private.deck_id_of_topic(p_topic text) returns uuid
language sql immutable
set search_path = ''
as $$
  select case when p_topic ~* '^deck:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then substr(p_topic, 6)::uuid end
$$;

revoke execute on function private.deck_id_of_topic from public;
grant execute on function private.deck_id_of_topic to authenticated, service_role;

create policy "members receive deck room messages" on realtime.messages
  for select to authenticated
  using (private.deck_role(private.deck_id_of_topic((select realtime.topic()))) is not null);

create policy "members send deck room messages" on realtime.messages
  for insert to authenticated
  with check (private.deck_role(private.deck_id_of_topic((select realtime.topic()))) is not null);
