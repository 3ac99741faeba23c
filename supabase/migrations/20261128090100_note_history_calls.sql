-- A note's versions (note_history_of), a deck's changes in a period
-- (deck_history) and since the caller last studied (deck_changes), and
-- revert_note, which brings back a version as a new one.

-- A note's versions, newest first, with their authors' names: those of the
-- versions in decks the caller reads (a note moved in from a deck they do
-- not read shows only its versions since). `previous_fields` and
-- `previous_tags` are those of the version listed after it, so a client
-- shows each change without another call.
create function public.note_history_of(p_note_id uuid)
returns table (
  note_id uuid,
  deck_id uuid,
  version integer,
  action text,
  kind public.note_kind,
  note_type_id uuid,
  fields jsonb,
  tags text[],
  previous_fields jsonb,
  previous_tags text[],
  author_id uuid,
  author_name text,
  co_author_id uuid,
  co_author_name text,
  reverted_from integer,
  created_at timestamptz
)
language sql stable security definer
set search_path = ''
as $$
  select h.note_id, h.deck_id, h.version, h.action, h.kind, h.note_type_id, h.fields, h.tags,
    lag(h.fields) over w, lag(h.tags) over w,
    h.author_id, nullif(a.display_name, ''), h.co_author_id, nullif(c.display_name, ''),
    h.reverted_from, h.created_at
  from public.note_history h
  left join public.profiles a on a.id = h.author_id
  left join public.profiles c on c.id = h.co_author_id
  where h.note_id = p_note_id and h.deck_id in (select private.readable_deck_ids())
    and (select private.aal_satisfied())
  window w as (order by h.version)
  order by h.version desc
$$;

revoke execute on function public.note_history_of(uuid) from public;
grant execute on function public.note_history_of(uuid) to anon, authenticated, service_role;

-- A deck's changes in a period (after p_since, up to p_until), newest first,
-- p_limit (1-200) at a time: the next page starts after the last row given
-- (p_after_at, p_after_note_id, p_after_version). Each row carries the note's
-- previous version's fields and tags, and its sort field now (null once it
-- is deleted). Readers of the deck only (PT404 otherwise).
create function public.deck_history(
  p_deck_id uuid,
  p_since timestamptz default null,
  p_until timestamptz default null,
  p_limit integer default 50,
  p_after_at timestamptz default null,
  p_after_note_id uuid default null,
  p_after_version integer default null
)
returns table (
  note_id uuid,
  deck_id uuid,
  version integer,
  action text,
  kind public.note_kind,
  note_type_id uuid,
  fields jsonb,
  tags text[],
  previous_fields jsonb,
  previous_tags text[],
  author_id uuid,
  author_name text,
  co_author_id uuid,
  co_author_name text,
  reverted_from integer,
  created_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.aal_satisfied() then
    perform private.fail('42501', 'two-factor sign-in required: enter the code from your authenticator app');
  elsif p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif p_limit is null or p_limit not between 1 and 200 then
    perform private.fail('22023', 'a page holds 1 to 200 changes', 'limit');
  elsif (p_after_at is null) <> (p_after_note_id is null) or (p_after_at is null) <> (p_after_version is null) then
    perform private.fail('22023', 'a page starts after a change: give its time, note and version', 'after');
  end if;
  perform private.check_time(p_since, 'since');
  perform private.check_time(p_until, 'until');
  return query
    select h.note_id, h.deck_id, h.version, h.action, h.kind, h.note_type_id, h.fields, h.tags,
      prev.fields, prev.tags,
      h.author_id, nullif(a.display_name, ''), h.co_author_id, nullif(c.display_name, ''),
      h.reverted_from, h.created_at
    from public.note_history h
    left join lateral (
      select p.fields, p.tags from public.note_history p
      where p.note_id = h.note_id and p.version < h.version and p.deck_id in (select private.readable_deck_ids())
      order by p.version desc limit 1
    ) prev on true
    left join public.profiles a on a.id = h.author_id
    left join public.profiles c on c.id = h.co_author_id
    where h.deck_id = p_deck_id
      and (p_since is null or h.created_at > p_since)
      and (p_until is null or h.created_at <= p_until)
      and (p_after_at is null or (h.created_at, h.note_id, h.version) < (p_after_at, p_after_note_id, p_after_version))
    order by h.created_at desc, h.note_id desc, h.version desc
    limit p_limit;
end
$$;

revoke execute on function public.deck_history(uuid, timestamptz, timestamptz, integer, timestamptz, uuid, integer)
  from public;
grant execute on function public.deck_history(uuid, timestamptz, timestamptz, integer, timestamptz, uuid, integer)
  to anon, authenticated, service_role;

-- What others changed in a deck since p_since, or, when it is null, since the
-- caller last answered one of its cards (nothing when they never did):
-- {since, edited, added, deleted, authors: [{id, name}]}, counting notes, not
-- versions. A note added in the period counts as added, one whose last
-- change in it is its deletion as deleted, any other as edited. Changes the
-- caller made alone are left out; a change they made with a co-author counts
-- for the co-author.
create function public.deck_changes(p_deck_id uuid, p_since timestamptz default null)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  since timestamptz := p_since;
  result jsonb;
begin
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  perform private.check_time(p_since, 'since');
  if since is null then
    select max(l.reviewed_at) into since
    from public.review_logs l
    join public.cards c on c.id = l.card_id
    where l.user_id = uid and c.deck_id = p_deck_id;
  end if;
  if since is null then
    return jsonb_build_object('since', null, 'edited', 0, 'added', 0, 'deleted', 0, 'authors', '[]'::jsonb);
  end if;
  with changes as (
    select h.note_id, h.action, h.version, h.author_id, h.co_author_id
    from public.note_history h
    where h.deck_id = p_deck_id and h.created_at > since
      and (h.author_id is distinct from uid or h.co_author_id is not null and h.co_author_id <> uid)
  ), per_note as (
    select note_id,
      bool_or(action = 'create') as added,
      (array_agg(action order by version desc))[1] = 'delete' as deleted
    from changes group by note_id
  ), people as (
    select distinct person from changes
    cross join lateral (values (author_id), (co_author_id)) as v(person)
    where person is not null and person <> uid
  )
  select jsonb_build_object(
    'since', since,
    'edited', (select count(*) from per_note where not added and not deleted),
    'added', (select count(*) from per_note where added and not deleted),
    'deleted', (select count(*) from per_note where deleted),
    'authors', coalesce((
      select jsonb_agg(jsonb_build_object('id', p.person, 'name', nullif(pr.display_name, ''))
        order by pr.display_name, p.person)
      from people p left join public.profiles pr on pr.id = p.person), '[]'::jsonb))
  into result;
  return result;
end
$$;

revoke execute on function public.deck_changes(uuid, timestamptz) from public, anon;
grant execute on function public.deck_changes(uuid, timestamptz) to authenticated, service_role;

-- Brings back a version of a note as a new version (action `revert`), for the
-- deck's owner and editors: its fields and tags, and its kind and note type.
-- p_base_version is the version the caller sees now; a note changed since is
-- refused (PT412 {"version": n}), as a save is. A version whose note type is
-- gone, or whose fields are no longer that note type's, is refused (PT409
-- {"reason": "note_type_changed"}): its text would not fit. Reverting to
-- what the note already holds changes nothing.
create function public.revert_note(p_note_id uuid, p_version integer, p_base_version integer)
returns public.notes
language plpgsql security definer
set search_path = ''
as $$
declare
  note public.notes;
  old_version public.note_history;
  type_fields text[];
begin
  perform private.require_user();
  select * into note from public.notes where id = p_note_id for update;
  if note.id is null or not private.can_read_deck(note.deck_id) then
    perform private.fail('PT404', 'note not found', 'note_id');
  elsif not private.can_edit_deck(note.deck_id) then
    perform private.fail('42501', 'only the owner and editors of a deck can restore a version of its notes');
  elsif p_base_version is distinct from note.version then
    perform private.fail('PT412', 'this note was changed since it was loaded',
      jsonb_build_object('version', note.version)::text);
  end if;
  select * into old_version from public.note_history h
  where h.note_id = p_note_id and h.version = p_version and h.action <> 'delete'
    and h.deck_id in (select private.readable_deck_ids());
  if old_version.note_id is null then
    perform private.fail('PT404', 'this version of the note was not found', 'version');
  end if;
  if old_version.kind = 'custom' then
    select t.fields into type_fields from public.note_types t where t.id = old_version.note_type_id;
    if type_fields is null or not private.note_type_usable(old_version.note_type_id, note.deck_id)
      or array(select k from jsonb_object_keys(old_version.fields) as k order by k)
        <> array(select f from unnest(type_fields) as f order by f)
    then
      perform private.fail('PT409', 'the note type of this version has changed since',
        jsonb_build_object('reason', 'note_type_changed')::text);
    end if;
  end if;
  perform set_config('engram.reverting_note',
    jsonb_build_object('note', p_note_id, 'version', p_version)::text, true);
  update public.notes
  set kind = old_version.kind, note_type_id = old_version.note_type_id,
    fields = old_version.fields, tags = old_version.tags
  where id = p_note_id
  returning * into note;
  perform set_config('engram.reverting_note', '', true);
  return note;
end
$$;

revoke execute on function public.revert_note(uuid, integer, integer) from public, anon;
grant execute on function public.revert_note(uuid, integer, integer) to authenticated, service_role;
