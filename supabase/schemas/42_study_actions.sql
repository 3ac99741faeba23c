-- Acting on the card being studied, as Anki's study screen does: bury it (or
-- its note's cards) until the next study day, and flag it. Suspending is
-- public.set_suspended (40_study.sql); marking a note is the user's own tag
-- "marked" in their personal layer (24_personal_notes.sql), so marking a
-- shared deck's note changes nothing for anyone else.
--
-- Both calls change only the caller's own schedules, of cards in decks they
-- are a member of, and refuse a card they cannot study as set_suspended does
-- (PT404, nothing changed).

-- Refuses a list of cards that is missing, too long, or names a card the
-- caller does not study (not found, or a deck they are not a member of).
create function private.check_study_cards(p_card_ids uuid[]) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_card_ids is null or cardinality(p_card_ids) = 0 then
    perform private.fail('22023', 'choose at least one card', 'card_ids');
  elsif cardinality(p_card_ids) > 1000 then
    perform private.fail('22023', 'choose at most 1000 cards at once', 'card_ids');
  end if;
  if exists (
    select 1 from unnest(p_card_ids) as wanted(id)
    left join public.cards c on c.id = wanted.id
    where c.id is null or private.deck_role(c.deck_id) is null
  ) then
    perform private.fail('PT404', 'card not found', 'card_ids');
  end if;
end
$$;

revoke execute on function private.check_study_cards(uuid[]) from public, anon, authenticated, service_role;

-- Buries the caller's schedules of the given cards until their next study day
-- starts (private.study_day, as the queue reckons days), or unburies them.
-- A bury is a schedule change: it bumps the version, so an answer computed
-- before it is refused (PT409) like one computed before another device's.
-- Returns each given card's schedule version and buried_until after the call,
-- so the caller can go on answering the card after an unbury.
create function public.bury_cards(p_card_ids uuid[], p_buried boolean)
returns table (card_id uuid, version integer, buried_until timestamptz)
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  until_at timestamptz;
begin
  if p_buried is null then
    perform private.fail('22023', 'buried must be true or false', 'buried');
  end if;
  perform private.check_study_cards(p_card_ids);
  if p_buried then
    select d.day_end into until_at
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, now()) d
    where p.id = uid;
  end if;
  update public.card_states s set buried_until = until_at, version = s.version + 1, updated_at = now()
  where s.user_id = uid and s.card_id = any (p_card_ids) and s.buried_until is distinct from until_at;
  return query
    select s.card_id, s.version, s.buried_until from public.card_states s
    where s.user_id = uid and s.card_id = any (p_card_ids)
    order by s.card_id;
end
$$;

-- Sets Anki's flag (1 red, 2 orange, 3 green, 4 blue, 5 pink, 6 turquoise,
-- 7 purple; 0 none) on the caller's schedules of the given cards. A flag is
-- not part of the schedule: the version stays, and an answer computed before
-- it still stands. Returns how many cards changed.
create function public.set_flag(p_card_ids uuid[], p_flag smallint) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  changed integer;
begin
  if p_flag is null or p_flag not between 0 and 7 then
    perform private.fail('22023', 'flag must be a whole number from 0 to 7', 'flag');
  end if;
  perform private.check_study_cards(p_card_ids);
  update public.card_states s set flag = p_flag, updated_at = now()
  where s.user_id = uid and s.card_id = any (p_card_ids) and s.flag is distinct from p_flag;
  get diagnostics changed = row_count;
  return changed;
end
$$;

revoke execute on function public.bury_cards(uuid[], boolean), public.set_flag(uuid[], smallint) from public, anon;
grant execute on function public.bury_cards(uuid[], boolean), public.set_flag(uuid[], smallint)
  to authenticated, service_role;
