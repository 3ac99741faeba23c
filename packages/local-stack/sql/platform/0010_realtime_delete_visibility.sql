-- Realtime DELETE events, in one of two ways chosen per start of the server
-- (realtime.engram_sync_delete_triggers(strict)):
--
-- * As hosted Realtime (the default): each DELETE statement on a published table
--   notifies `engram_realtime` with the old rows' primary keys, which reach every
--   subscriber of the table (RLS cannot be applied to a row that is gone).
-- * Strict mode: only subscribers who could see the deleted row hear of it. A deleted
--   row cannot be read back, so each DELETE statement keeps its old rows in
--   realtime.engram_deleted_rows (tagged with the transaction) and notifies the range
--   it wrote. The server then puts the transaction's deleted rows back inside a
--   rolled-back transaction and selects the row as each subscriber, so RLS decides as
--   it would have just before the delete.
--
-- Both live here so that one set of platform scripts (and one kept template database)
-- serves both modes; the table below stays empty unless strict mode is on.
create table if not exists realtime.engram_deleted_rows (
  seq bigint generated always as identity primary key,
  txid bigint not null default txid_current(),
  relid oid not null,
  old_row jsonb not null
);

revoke all on realtime.engram_deleted_rows from public;
do $$
declare
  api_role text;
begin
  foreach api_role in array array['anon', 'authenticated', 'service_role'] loop
    if exists (select 1 from pg_roles where rolname = api_role) then
      execute format('revoke all on realtime.engram_deleted_rows from %I', api_role);
    end if;
  end loop;
end
$$;

-- Security definer: the deleting role has no access to the table above.
create or replace function realtime.engram_capture_deletes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  first_seq bigint;
  last_seq bigint;
begin
  with kept as (
    insert into realtime.engram_deleted_rows (relid, old_row)
    select TG_RELID, to_jsonb(o) from old_rows o
    returning seq
  )
  select min(seq), max(seq) into first_seq, last_seq from kept;
  if first_seq is null then
    return null;
  end if;
  perform pg_notify('engram_realtime', jsonb_build_object(
    'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', 'DELETE',
    'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'txid', txid_current(), 'deleted', jsonb_build_array(first_seq, last_seq))::text);
  return null;
end
$$;

-- The hosted way: the old rows' primary keys, grouped so that each NOTIFY stays
-- under 8000 bytes, as realtime.engram_notify_statement groups new rows.
create or replace function realtime.engram_notify_deletes() returns trigger
language plpgsql as $$
declare
  key_columns text[];
  chunk jsonb;
begin
  select coalesce(array_agg(a.attname::text order by a.attnum), '{}') into key_columns
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
   where i.indrelid = TG_RELID and i.indisprimary;
  for chunk in
    with entries as (
      select row_number() over () as n, jsonb_build_object('old', k.key) as entry
        from engram_old_rows t,
        lateral (select coalesce(jsonb_object_agg(c, to_jsonb(t) -> c), '{}'::jsonb) as key
                   from unnest(key_columns) c) k
    ), sized as (
      select n, entry, sum(octet_length(entry::text) + 1) over (order by n) as running from entries
    )
    select jsonb_agg(entry order by n) from sized group by running / 4000 order by running / 4000
  loop
    perform pg_notify('engram_realtime', jsonb_build_object(
      'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', 'DELETE',
      'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'rows', chunk)::text);
  end loop;
  return null;
end
$$;

-- Earlier versions took no argument and always kept the rows.
drop function if exists realtime.engram_sync_delete_triggers();

-- Like realtime.engram_sync_change_triggers for DELETE: in strict mode the trigger that
-- keeps the old rows (`engram_realtime_deletes`), else the one that notifies their keys
-- (`engram_realtime_delete_keys`; per row, `engram_realtime_delete_rows`, on a table
-- that cannot take a statement trigger with transition tables).
-- Triggers of the other mode, and of tables that left the publication, are dropped.
create or replace function realtime.engram_sync_delete_triggers(strict boolean) returns void
language plpgsql as $$
declare
  r record;
  wanted text[] := case when strict then array['engram_realtime_deletes']
                        else array['engram_realtime_delete_keys', 'engram_realtime_delete_rows'] end;
begin
  for r in
    select t.tgrelid::regclass as rel, t.tgname from pg_trigger t
    where t.tgname in ('engram_realtime_deletes', 'engram_realtime_delete_keys', 'engram_realtime_delete_rows')
      and (t.tgname <> all (wanted)
        or not exists (
          select 1 from pg_publication_tables pt
          where pt.pubname = 'supabase_realtime'
            and format('%I.%I', pt.schemaname, pt.tablename)::regclass = t.tgrelid))
  loop
    execute format('drop trigger %I on %s', r.tgname, r.rel);
  end loop;
  for r in
    select pt.schemaname, pt.tablename from pg_publication_tables pt
    where pt.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t
        where t.tgname = any (wanted)
          and t.tgrelid = format('%I.%I', pt.schemaname, pt.tablename)::regclass)
  loop
    begin
      if strict then
        execute format(
          'create trigger engram_realtime_deletes after delete on %I.%I '
          'referencing old table as old_rows for each statement '
          'execute function realtime.engram_capture_deletes()', r.schemaname, r.tablename);
      else
        execute format(
          'create trigger engram_realtime_delete_keys after delete on %I.%I '
          'referencing old table as engram_old_rows for each statement '
          'execute function realtime.engram_notify_deletes()', r.schemaname, r.tablename);
      end if;
    exception when others then
      if strict then
        raise warning 'realtime: no DELETE events for %.%: %', r.schemaname, r.tablename, sqlerrm;
      else
        execute format(
          'create trigger engram_realtime_delete_rows after delete on %I.%I '
          'for each row execute function realtime.engram_notify_change()', r.schemaname, r.tablename);
      end if;
    end;
  end loop;
end
$$;
