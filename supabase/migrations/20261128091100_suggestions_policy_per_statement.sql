-- Suggestions are read by their author and by the deck's maintainers, the
-- decks looked up once per statement rather than once per row.
create function private.maintained_deck_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select deck_id from public.deck_members where user_id = auth.uid() and role in ('owner', 'editor')
$$;

revoke execute on function private.maintained_deck_ids() from public, anon;

drop policy "authors and maintainers read suggestions" on public.note_suggestions;
create policy "authors and maintainers read suggestions" on public.note_suggestions
  for select to authenticated
  using (author_id = (select auth.uid()) or deck_id in (select private.maintained_deck_ids()));
