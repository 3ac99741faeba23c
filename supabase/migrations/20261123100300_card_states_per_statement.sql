-- New cards get their members' 'new' schedule rows in one insert per
-- statement instead of one per card: a note's cards arrive in one statement
-- (private.sync_note_cards), and a cloze note of 500 numbers in a deck of
-- many members made 500 separate inserts. Moving a card to another deck
-- stays per row (private.add_card_states), since a trigger with a column
-- list cannot see transition tables.
create function private.add_new_cards_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.card_states (user_id, card_id, deck_id, due)
  select m.user_id, c.id, c.deck_id, c.created_at
  from added_cards c
  join public.deck_members m on m.deck_id = c.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

revoke execute on function private.add_new_cards_states() from public;
grant execute on function private.add_new_cards_states() to authenticated, service_role;

drop trigger cards_add_states on public.cards;
create trigger cards_add_states after insert on public.cards
  referencing new table as added_cards
  for each statement execute function private.add_new_cards_states();
create trigger cards_move_states after update of deck_id on public.cards
  for each row execute function private.add_card_states();
