-- Cloze notes: one linear pass finds a text's numbers and nesting depth, and
-- a note may hold at most 500 distinct numbers nested at most 50 deep
-- (limits.clozeNumbersPerNote and limits.clozeNestingDepth in @engram/core),
-- so no single note can make thousands of cards and schedules at once.

-- The numbers and nesting depth of a text's well-formed deletions (mirrored
-- by clozeOrdinals and clozeNesting in @engram/core; see cloze_ordinals in
-- 20261122090000 for the syntax). Every token costs O(1): the stack is
-- written in place by index instead of being copied by slicing, and the
-- numbers are collected once and sorted at the end.
create function private.cloze_scan(p_text text, out ordinals int[], out depth int)
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  token text[];
  -- the open deletions, innermost at open_count
  open_number numeric[] := '{}';
  -- depth of the deepest deletion closed inside each open one so far
  open_inside int[] := '{}';
  open_count int := 0;
  closed numeric[] := '{}';
  closed_count int := 0;
  height int;
begin
  depth := 0;
  for token in select m from regexp_matches(coalesce(p_text, ''), '\{\{c([0-9]+)::|\}\}', 'g') as m loop
    if token[1] is not null then
      -- number 0 (any run of zeros) is not an opening
      if token[1] ~ '[1-9]' then
        open_count := open_count + 1;
        open_number[open_count] := token[1]::numeric;
        open_inside[open_count] := 0;
      end if;
    elsif open_count > 0 then
      height := open_inside[open_count] + 1;
      closed_count := closed_count + 1;
      closed[closed_count] := open_number[open_count];
      open_count := open_count - 1;
      -- an opening below that never closes never counts: only closed ones report a height
      if open_count > 0 and open_inside[open_count] < height then
        open_inside[open_count] := height;
      end if;
      if height > depth then
        depth := height;
      end if;
    end if;
  end loop;
  ordinals := coalesce(
    (select array_agg(distinct c order by c) from unnest(closed) as c where c <= 2147483647),
    '{}'
  )::int[];
end
$$;

create or replace function private.cloze_ordinals(p_text text) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select (private.cloze_scan(p_text)).ordinals
$$;

create function private.cloze_nesting(p_text text) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select (private.cloze_scan(p_text)).depth
$$;

revoke execute on function private.cloze_scan(text), private.cloze_nesting(text) from public;
grant execute on function private.cloze_scan(text), private.cloze_nesting(text) to anon, authenticated, service_role;

alter table public.notes
  add constraint notes_cloze_numbers_limit
    check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) <= 500),
  add constraint notes_cloze_nesting_limit
    check (kind <> 'cloze' or private.cloze_nesting(fields ->> 'text') <= 50);
