-- Private channels: Supabase Realtime authorises `config.private` channels with RLS
-- policies on realtime.messages (SELECT = receive, INSERT = send), per extension
-- (broadcast, presence), with realtime.topic() naming the channel being checked.
-- Shaped as Realtime creates it: partitioned by day, uuid ids, a binary payload.
-- Realtime adds one partition per day; here a default partition takes every day.
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  primary key (id, inserted_at)
) partition by range (inserted_at);
create table if not exists realtime.messages_default partition of realtime.messages default;

alter table realtime.messages enable row level security;

grant select, insert, update on realtime.messages to anon, authenticated;
grant all on realtime.messages to service_role;

create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

grant execute on function realtime.topic() to anon, authenticated, service_role;
