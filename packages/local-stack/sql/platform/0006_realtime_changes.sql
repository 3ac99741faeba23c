-- Change capture for Realtime postgres_changes without logical decoding (PGlite has none):
-- every table in the supabase_realtime publication gets an AFTER row trigger that
-- notifies `engram_realtime` with the table, operation, timestamp, primary key and,
-- when it fits NOTIFY's 8000-byte limit, the new row (else the server reads the row
-- by key). The server checks RLS by reading the key as each subscriber.
create schema if not exists realtime;

create or replace function realtime.engram_notify_change() returns trigger
language plpgsql as $$
declare
  pk_new jsonb := '{}'::jsonb;
  pk_old jsonb := '{}'::jsonb;
  col text;
  message jsonb;
  row_json jsonb;
begin
  for col in
    select a.attname from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
    where i.indrelid = TG_RELID and i.indisprimary
  loop
    if TG_OP <> 'DELETE' then pk_new := pk_new || jsonb_build_object(col, to_jsonb(NEW) -> col); end if;
    if TG_OP <> 'INSERT' then pk_old := pk_old || jsonb_build_object(col, to_jsonb(OLD) -> col); end if;
  end loop;
  message := jsonb_build_object(
    'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP,
    'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'new', case when TG_OP = 'DELETE' then null else pk_new end,
    'old', case when TG_OP = 'INSERT' then null else pk_old end);
  if TG_OP <> 'DELETE' then
    row_json := to_jsonb(NEW);
    if octet_length(row_json::text) + octet_length(message::text) < 7800 then
      message := message || jsonb_build_object('record', row_json);
    end if;
  end if;
  perform pg_notify('engram_realtime', message::text);
  return null;
end
$$;

-- Adds the trigger to tables in the publication that lack it and drops it from tables
-- that left; the server calls it at start and whenever a channel subscribes to changes.
create or replace function realtime.engram_sync_change_triggers() returns void
language plpgsql as $$
declare
  r record;
begin
  for r in
    select pt.schemaname, pt.tablename from pg_publication_tables pt
    where pt.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t
        where t.tgname = 'engram_realtime_changes'
          and t.tgrelid = format('%I.%I', pt.schemaname, pt.tablename)::regclass)
  loop
    execute format(
      'create trigger engram_realtime_changes after insert or update or delete on %I.%I '
      'for each row execute function realtime.engram_notify_change()', r.schemaname, r.tablename);
  end loop;
  for r in
    select t.tgrelid::regclass as rel from pg_trigger t
    where t.tgname = 'engram_realtime_changes'
      and not exists (
        select 1 from pg_publication_tables pt
        where pt.pubname = 'supabase_realtime'
          and format('%I.%I', pt.schemaname, pt.tablename)::regclass = t.tgrelid)
  loop
    execute format('drop trigger engram_realtime_changes on %s', r.rel);
  end loop;
end
$$;
