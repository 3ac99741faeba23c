-- Counting an answer reads its schedule and card only when its log does not
-- name its deck; answers and imports do.

-- Statement-level, so an import of 100,000 answers adds them in one pass.
create or replace function private.count_added_reviews() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  with added as materialized (
    select l.id, l.user_id, l.previous ? 'deck_id' as deck_in_log,
           -- Answers and imports name their deck in the log; the schedule and
           -- the card are read only for a log that does not (coalesce stops
           -- at the first value), not twice per answer of a 100,000-answer import.
           coalesce(
             (l.previous ->> 'deck_id')::uuid,
             (select s.deck_id from public.card_states s where s.user_id = l.user_id and s.card_id = l.card_id),
             (select c.deck_id from public.cards c where c.id = l.card_id)
           ) as deck_id,
           private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
           private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature, l.duration_ms
    from added_logs l
  ),
  noted as (
    insert into private.review_log_decks (log_id, deck_id)
    select id, deck_id from added where not deck_in_log
    on conflict (log_id) do update set deck_id = excluded.deck_id
  ),
  by_deck as materialized (
    select user_id, deck_id, slot, state, rating, mature, count(*)::integer as reviews, sum(duration_ms) as duration_ms
    from added
    group by 1, 2, 3, 4, 5, 6
  ),
  decks_counted as (
    insert into private.review_deck_counts as r (user_id, deck_id, slot, state, rating, mature, reviews, duration_ms)
    -- (a deck deleted meanwhile has no figures left to add to)
    select b.* from by_deck b join public.decks d on d.id = b.deck_id
    on conflict (user_id, deck_id, slot, state, rating, mature) do update
      set reviews = r.reviews + excluded.reviews, duration_ms = r.duration_ms + excluded.duration_ms
  ),
  decks_listed as (
    insert into private.review_decks (user_id, deck_id)
    select distinct b.user_id, b.deck_id from by_deck b join public.decks d on d.id = b.deck_id
    on conflict do nothing
  )
  insert into private.review_counts as r (user_id, slot, state, rating, mature, reviews, duration_ms)
  select user_id, slot, state, rating, mature, sum(reviews), sum(duration_ms)
  from by_deck
  group by 1, 2, 3, 4, 5
  on conflict (user_id, slot, state, rating, mature) do update
    set reviews = r.reviews + excluded.reviews, duration_ms = r.duration_ms + excluded.duration_ms;
  return null;
end
$$;
