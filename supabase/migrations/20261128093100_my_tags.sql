-- A note's computed fields my_tags and tags_with_mine: the caller's own tags
-- on it, alone and with the note's, for the note browser to show and filter by.

-- Computed fields of a note (PostgREST's `notes?select=my_tags`): the caller's
-- own tags on it, and those together with the note's, which the note browser's
-- tag filter matches so a user finds notes by either (docs/product.md §3).
create function public.my_tags(p_note public.notes) returns text[]
language sql stable
set search_path = ''
as $$
  select coalesce(
    (select p.tags from public.personal_notes p where p.user_id = (select auth.uid()) and p.note_id = p_note.id),
    '{}')
$$;

create function public.tags_with_mine(p_note public.notes) returns text[]
language sql stable
set search_path = ''
as $$
  select p_note.tags || public.my_tags(p_note)
$$;

revoke execute on function public.my_tags(public.notes), public.tags_with_mine(public.notes) from public;
grant execute on function public.my_tags(public.notes), public.tags_with_mine(public.notes)
  to anon, authenticated, service_role;
