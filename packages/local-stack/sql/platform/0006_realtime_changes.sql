-- Change capture for Realtime postgres_changes without logical decoding (PGlite has none):
-- every table in the supabase_realtime publication gets AFTER INSERT and AFTER UPDATE
-- statement triggers that notify `engram_realtime` once per statement (or per chunk of
-- rows under NOTIFY's 8000-byte limit) with the table, operation, timestamp and each
-- row's primary key and, when it is small, the new row (else the server reads the row
-- by key). A bulk insert so costs one trigger call and a few NOTIFYs, not one of each
-- per row. The server checks RLS by reading the key as each subscriber. DELETE is
-- captured by 0010. A table that cannot take transition tables (a partition) gets the
-- per-row trigger instead.
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

-- Rows of one statement: entries `{new: key, record?}` grouped so that each NOTIFY
-- stays under 8000 bytes (a record is sent when under 3000 bytes, a group holds
-- entries until it passes 4000).
create or replace function realtime.engram_notify_statement() returns trigger
language plpgsql as $$
declare
  key_columns text[];
  chunk jsonb;
begin
  select coalesce(array_agg(a.attname::text order by a.attnum), '{}') into key_columns
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
   where i.indrelid = TG_RELID and i.indisprimary;
  for chunk in
    with changed as (
      select row_number() over () as n, to_jsonb(t) as rec from engram_new_rows t
    ), entries as (
      select n, case when octet_length(rec::text) < 3000
               then jsonb_build_object('new', k.key, 'record', rec)
               else jsonb_build_object('new', k.key) end as entry
        from changed,
        lateral (select coalesce(jsonb_object_agg(c, rec -> c), '{}'::jsonb) as key from unnest(key_columns) c) k
    ), sized as (
      select n, entry, sum(octet_length(entry::text) + 1) over (order by n) as running from entries
    )
    select jsonb_agg(entry order by n) from sized group by running / 4000 order by running / 4000
  loop
    perform pg_notify('engram_realtime', jsonb_build_object(
      'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP,
      'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'rows', chunk)::text);
  end loop;
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
    select pt.schemaname, pt.tablename, format('%I.%I', pt.schemaname, pt.tablename)::regclass as rel
    from pg_publication_tables pt
    where pt.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t
        where t.tgname in ('engram_realtime_inserts', 'engram_realtime_rows')
          and t.tgrelid = format('%I.%I', pt.schemaname, pt.tablename)::regclass)
  loop
    -- Earlier versions captured every row with one trigger of this name.
    execute format('drop trigger if exists engram_realtime_changes on %s', r.rel);
    begin
      execute format(
        'create trigger engram_realtime_inserts after insert on %s '
        'referencing new table as engram_new_rows for each statement '
        'execute function realtime.engram_notify_statement()', r.rel);
      execute format(
        'create trigger engram_realtime_updates after update on %s '
        'referencing new table as engram_new_rows for each statement '
        'execute function realtime.engram_notify_statement()', r.rel);
    exception when others then
      execute format(
        'create trigger engram_realtime_rows after insert or update on %s '
        'for each row execute function realtime.engram_notify_change()', r.rel);
    end;
  end loop;
  for r in
    select t.tgrelid::regclass as rel, t.tgname from pg_trigger t
    where t.tgname in ('engram_realtime_inserts', 'engram_realtime_updates', 'engram_realtime_rows',
        'engram_realtime_changes')
      and not exists (
        select 1 from pg_publication_tables pt
        where pt.pubname = 'supabase_realtime'
          and format('%I.%I', pt.schemaname, pt.tablename)::regclass = t.tgrelid)
  loop
    execute format('drop trigger %I on %s', r.tgname, r.rel);
  end loop;
end
$$;
