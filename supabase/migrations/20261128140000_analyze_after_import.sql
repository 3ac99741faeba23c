-- A finished import analyses the tables it grew, as autovacuum would within
-- its next minute. Until then the planner takes a deck of 10,000 new notes
-- for a handful: a search such as front:word12* in that minute took 300-800 ms
-- instead of ~20 ms. ANALYZE sees the import's own uncommitted rows, and its
-- statistics commit with them. Imports that are small, or small beside the
-- table, are left to autovacuum (the cost is a sample of the table, not the
-- import's size).

-- Whether `p_added` rows are a bulk write for the table: at least 1,000, and
-- more than autovacuum's 10 % of what the table held when last analysed.
create function private.grew_in_bulk(p_table regclass, p_added bigint) returns boolean
language sql stable
set search_path = ''
as $$
  select p_added >= 1000 and p_added > 0.1 * greatest(c.reltuples, 0)
  from pg_catalog.pg_class c where c.oid = p_table
$$;

revoke execute on function private.grew_in_bulk(regclass, bigint) from public, anon, authenticated;

-- Runs as the tables' owner: only an owner may ANALYZE.
create function private.analyze_after_import() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if private.grew_in_bulk('public.notes', coalesce((new.summary ->> 'notes_added')::bigint, 0)) then
    analyze public.notes;
  end if;
  if private.grew_in_bulk('public.cards', coalesce((new.summary ->> 'cards')::bigint, 0)) then
    analyze public.cards;
    analyze public.card_states;
  end if;
  if private.grew_in_bulk('public.review_logs', coalesce((new.summary ->> 'reviews_added')::bigint, 0)) then
    analyze public.review_logs;
  end if;
  return null;
end
$$;

revoke execute on function private.analyze_after_import() from public, anon, authenticated;

create trigger import_jobs_analyze_after_import after update of status on public.import_jobs
for each row when (old.status is distinct from new.status and new.status = 'done')
execute function private.analyze_after_import();
