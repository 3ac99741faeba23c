-- Realtime DELETE events go only to subscribers who could see the deleted row.
-- A deleted row cannot be read back, so each DELETE statement on a published table
-- keeps its old rows in realtime.engram_deleted_rows (tagged with the transaction)
-- and notifies `engram_realtime` with the range it wrote. The server then puts the
-- transaction's deleted rows back inside a rolled-back transaction and selects the
-- row as each subscriber, so RLS decides as it would have just before the delete.
-- (0006's per-row DELETE notices carry no old row; the server ignores them.)
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

-- Like realtime.engram_sync_change_triggers for the statement-level DELETE trigger;
-- a table that cannot take one (a partition) is skipped with a warning.
create or replace function realtime.engram_sync_delete_triggers() returns void
language plpgsql as $$
declare
  r record;
begin
  for r in
    select pt.schemaname, pt.tablename from pg_publication_tables pt
    where pt.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t
        where t.tgname = 'engram_realtime_deletes'
          and t.tgrelid = format('%I.%I', pt.schemaname, pt.tablename)::regclass)
  loop
    begin
      execute format(
        'create trigger engram_realtime_deletes after delete on %I.%I '
        'referencing old table as old_rows for each statement '
        'execute function realtime.engram_capture_deletes()', r.schemaname, r.tablename);
    exception when others then
      raise warning 'realtime: no DELETE events for %.%: %', r.schemaname, r.tablename, sqlerrm;
    end;
  end loop;
  for r in
    select t.tgrelid::regclass as rel from pg_trigger t
    where t.tgname = 'engram_realtime_deletes'
      and not exists (
        select 1 from pg_publication_tables pt
        where pt.pubname = 'supabase_realtime'
          and format('%I.%I', pt.schemaname, pt.tablename)::regclass = t.tgrelid)
  loop
    execute format('drop trigger engram_realtime_deletes on %s', r.rel);
  end loop;
end
$$;
