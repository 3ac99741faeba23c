-- Suggestions: a proposed edit of a note, a new note or a deletion, with a
-- rationale, that the deck's maintainers (its owner and editors) accept or
-- reject (docs/product.md §4, "Suggestions"). Who may suggest is the deck's
-- `suggestions_from`, set by its owner. Suggestions are written only through
-- the functions below and read by their author and the deck's maintainers.

create type public.suggestions_from as enum ('members', 'public', 'nobody');
create type public.suggestion_action as enum ('edit', 'create', 'delete');
create type public.suggestion_status as enum ('pending', 'accepted', 'rejected', 'closed');

-- 'members': any member of the deck (viewers, and editors who choose to);
-- 'public': also any signed-in user who reads the deck because it is public;
-- 'nobody'. Written by the owner as the deck's other settings are.
alter table public.decks add column suggestions_from public.suggestions_from not null default 'members';
grant select (suggestions_from) on public.decks to anon, authenticated;
grant insert (suggestions_from), update (suggestions_from) on public.decks to authenticated;

create table public.note_suggestions (
  id uuid primary key default gen_random_uuid(),
  deck_id uuid not null references public.decks (id) on delete cascade,
  -- The note an edit or deletion is about (no foreign key: a deleted note
  -- closes its suggestions, which keep their record), or the note an
  -- accepted 'create' made; null for a 'create' not accepted.
  note_id uuid,
  author_id uuid not null references auth.users (id) on delete cascade,
  action public.suggestion_action not null,
  kind public.note_kind not null,
  note_type_id uuid,
  -- What the note would become ('edit', 'create'); null for a 'delete'.
  fields jsonb,
  tags text[],
  rationale text not null default ''
    constraint note_suggestions_rationale_length check (char_length(rationale) <= 1000),
  -- The note as the author saw it ('edit', 'delete'), so a review shows the
  -- base, the suggestion and the note as it is now.
  base_version integer,
  base_fields jsonb,
  base_tags text[],
  status public.suggestion_status not null default 'pending',
  -- Why it was closed without a review: withdrawn by its author, the note
  -- deleted, the author no longer allowed to suggest.
  closed_because text constraint note_suggestions_closed_because_valid
    check (closed_because in ('withdrawn', 'note_deleted', 'not_allowed')),
  review_reason text constraint note_suggestions_review_reason_length check (char_length(review_reason) <= 1000),
  reviewer_id uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  constraint note_suggestions_note_required check (action = 'create' or note_id is not null),
  constraint note_suggestions_content_shape check ((action = 'delete') = (fields is null and tags is null)),
  constraint note_suggestions_base_shape check ((action = 'create') = (base_version is null))
);
alter table public.note_suggestions enable row level security;
create index note_suggestions_queue_idx on public.note_suggestions (deck_id, created_at, id) where status = 'pending';
create index note_suggestions_author_idx on public.note_suggestions (author_id, created_at desc);
create index note_suggestions_author_deck_pending_idx on public.note_suggestions (author_id, deck_id)
  where status = 'pending';
create index note_suggestions_note_pending_idx on public.note_suggestions (note_id) where status = 'pending';

-- The decks the caller maintains (owns or edits), for policies: one lookup per
-- statement rather than one per row.
create function private.maintained_deck_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select deck_id from public.deck_members where user_id = auth.uid() and role in ('owner', 'editor')
$$;

revoke execute on function private.maintained_deck_ids() from public, anon;

create policy "authors and maintainers read suggestions" on public.note_suggestions
  for select to authenticated
  using (author_id = (select auth.uid()) or deck_id in (select private.maintained_deck_ids()));
create policy "two-factor sessions only" on public.note_suggestions as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.note_suggestions from anon, authenticated, service_role;
grant select, insert, update, delete on public.note_suggestions to service_role;
grant select on public.note_suggestions to authenticated;

-- Whether the caller may suggest changes to a deck (see suggestions_from).
create function private.may_suggest(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.decks d
    where d.id = p_deck_id
      and d.suggestions_from <> 'nobody'
      and (
        exists (select 1 from public.deck_members m where m.deck_id = d.id and m.user_id = auth.uid())
        or (d.suggestions_from = 'public' and d.is_public)
      )
  )
$$;

-- Checks that a note with these contents could be stored in the deck, by
-- storing it in a subtransaction that is always undone: the notes table's
-- own constraints and triggers judge it, so a suggestion meets exactly the
-- rules a note does (23514 naming the constraint, 22023 naming the field).
-- Its cards are not made (the setting finish_import uses), so it stays cheap.
create function private.check_note_contents(
  p_deck_id uuid, p_kind public.note_kind, p_note_type_id uuid, p_fields jsonb, p_tags text[]
) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if jsonb_typeof(p_fields) is distinct from 'object' then
    perform private.fail('22023', 'fields must be an object of text', 'fields');
  elsif p_tags is null then
    perform private.fail('22023', 'tags must be a list', 'tags');
  end if;
  begin
    perform set_config('engram.adding_cards_in_bulk', 'on', true);
    insert into public.notes (deck_id, kind, note_type_id, fields, tags)
    values (p_deck_id, p_kind, p_note_type_id, p_fields, p_tags);
    raise exception using errcode = 'EGOK0', message = 'valid';
  exception when sqlstate 'EGOK0' then
    null;
  end;
end
$$;

revoke execute on function private.check_note_contents(uuid, public.note_kind, uuid, jsonb, text[])
  from public, anon, authenticated;

-- Proposes a change to a deck: 'edit' (p_note_id with the note's new fields
-- and tags), 'create' (p_deck_id, p_kind, p_note_type_id for a custom note,
-- fields and tags) or 'delete' (p_note_id). The contents must meet every rule
-- of a note (check_note_contents). An author has at most 100 pending
-- suggestions per deck and makes at most 20 a minute (PT413, detail
-- `pending` or `rate`).
create function public.suggest_note_change(
  p_action public.suggestion_action,
  p_deck_id uuid default null,
  p_note_id uuid default null,
  p_kind public.note_kind default null,
  p_note_type_id uuid default null,
  p_fields jsonb default null,
  p_tags text[] default null,
  p_rationale text default ''
) returns public.note_suggestions
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  note public.notes;
  target_deck uuid := p_deck_id;
  made public.note_suggestions;
begin
  if p_action is null then
    perform private.fail('22023', 'say what the suggestion does', 'action');
  elsif char_length(coalesce(p_rationale, '')) > 1000 then
    perform private.fail('22023', 'a rationale is at most 1000 characters', 'rationale');
  end if;
  if p_action in ('edit', 'delete') then
    select * into note from public.notes where id = p_note_id;
    if note.id is null or not private.can_read_deck(note.deck_id) then
      perform private.fail('PT404', 'note not found', 'note_id');
    elsif p_deck_id is not null and p_deck_id <> note.deck_id then
      perform private.fail('22023', 'the note is not in this deck', 'deck_id');
    end if;
    target_deck := note.deck_id;
  elsif target_deck is null or not private.can_read_deck(target_deck) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  if not private.may_suggest(target_deck) then
    perform private.fail('42501', 'suggestions to this deck are not open to you');
  end if;

  if p_action = 'edit' then
    if (p_fields, coalesce(p_tags, note.tags)) is not distinct from (note.fields, note.tags) then
      perform private.fail('22023', 'the suggestion changes nothing', 'fields');
    end if;
    perform private.check_note_contents(note.deck_id, note.kind, note.note_type_id, p_fields, coalesce(p_tags, note.tags));
  elsif p_action = 'create' then
    if p_kind is null then
      perform private.fail('22023', 'say what kind of note to add', 'kind');
    end if;
    perform private.check_note_contents(target_deck, p_kind, p_note_type_id, p_fields, coalesce(p_tags, '{}'));
  end if;

  -- One author's suggestions are counted one at a time.
  perform pg_advisory_xact_lock(hashtextextended('note_suggestions:' || uid::text, 0));
  if (select count(*) from public.note_suggestions
      where author_id = uid and deck_id = target_deck and status = 'pending') >= 100 then
    perform private.fail('PT413', 'you have 100 suggestions waiting for review in this deck', 'pending');
  elsif (select count(*) from public.note_suggestions
      where author_id = uid and created_at > now() - interval '1 minute') >= 20 then
    perform private.fail('PT413', 'at most 20 suggestions a minute: try again shortly', 'rate');
  end if;

  insert into public.note_suggestions
    (deck_id, note_id, author_id, action, kind, note_type_id, fields, tags, rationale,
     base_version, base_fields, base_tags)
  values (
    target_deck, note.id, uid, p_action,
    coalesce(note.kind, p_kind),
    case when p_action = 'create' then p_note_type_id else note.note_type_id end,
    case when p_action <> 'delete' then p_fields end,
    case when p_action = 'edit' then coalesce(p_tags, note.tags) when p_action = 'create' then coalesce(p_tags, '{}') end,
    coalesce(p_rationale, ''),
    note.version, note.fields, note.tags)
  returning * into made;
  return made;
end
$$;

revoke execute on function public.suggest_note_change(public.suggestion_action, uuid, uuid, public.note_kind, uuid, jsonb,
  text[], text) from public, anon;
grant execute on function public.suggest_note_change(public.suggestion_action, uuid, uuid, public.note_kind, uuid, jsonb,
  text[], text) to authenticated, service_role;

-- Its author takes back a pending suggestion (closed, 'withdrawn').
create function public.withdraw_suggestion(p_id uuid) returns public.note_suggestions
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  row_ public.note_suggestions;
begin
  select * into row_ from public.note_suggestions where id = p_id for update;
  if row_.id is null or row_.author_id <> uid then
    perform private.fail('PT404', 'suggestion not found', 'id');
  elsif row_.status <> 'pending' then
    perform private.fail('PT409', 'this suggestion was already reviewed or closed',
      jsonb_build_object('suggestions', jsonb_build_array(jsonb_build_object('id', row_.id, 'status', row_.status)))::text);
  end if;
  update public.note_suggestions
  set status = 'closed', closed_because = 'withdrawn', reviewed_at = now()
  where id = p_id
  returning * into row_;
  return row_;
end
$$;

revoke execute on function public.withdraw_suggestion(uuid) from public, anon;
grant execute on function public.withdraw_suggestion(uuid) to authenticated, service_role;

-- The fields an accepted edit gives the note. On the base it was made from,
-- the suggestion's fields; on a note changed since, the current note with
-- only the fields the suggestion changed replaced, and `conflicts` naming
-- the fields both changed differently (the reviewer resolves those by
-- editing the suggestion first).
create function private.merge_suggested_fields(
  p_base jsonb, p_suggested jsonb, p_current jsonb, out fields jsonb, out conflicts text[]
)
language sql immutable
set search_path = ''
as $$
  select
    p_current || coalesce(jsonb_object_agg(s.key, s.value) filter (where s.value is distinct from p_base -> s.key), '{}'),
    coalesce(array_agg(s.key order by s.key) filter (
      where s.value is distinct from p_base -> s.key
        and p_current -> s.key is distinct from p_base -> s.key
        and p_current -> s.key is distinct from s.value), '{}')
  from jsonb_each(p_suggested) as s(key, value)
$$;

-- Tags merge as sets: the current tags less those the suggestion removed,
-- then those it added.
create function private.merge_suggested_tags(p_base text[], p_suggested text[], p_current text[]) returns text[]
language sql immutable
set search_path = ''
as $$
  select coalesce(array_agg(tag order by at), '{}')
  from (
    select tag, min(at) as at
    from (
      select tag, at from unnest(p_current) with ordinality as c(tag, at)
      where tag = any (p_suggested) or tag <> all (p_base)
      union all
      select tag, 1000 + at from unnest(p_suggested) with ordinality as s(tag, at) where tag <> all (p_base)
    ) as candidates
    group by tag
  ) as merged
$$;

-- Accepts or rejects suggestions, all or nothing, up to 200 at once; only
-- the owner and editors of each one's deck (42501). A suggestion that is not
-- pending refuses the batch (PT409 {"suggestions": [{id, status}]}). Accepting
-- applies each in the order they were made: an edit updates the note (merged
-- onto a note changed since, see merge_suggested_fields; fields both changed
-- refuse the batch, PT409 {"conflicts": [{id, fields}]}), a new note is
-- added, a deletion deletes the note. p_edits ({"<id>": {fields, tags}})
-- replaces what a suggestion proposes before it is accepted, checked as any
-- note is. The resulting versions are the reviewer's, with the suggester as
-- co-author.
create function public.review_suggestions(
  p_ids uuid[],
  p_decision text,
  p_reason text default null,
  p_edits jsonb default null
) returns setof public.note_suggestions
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  s public.note_suggestions;
  note public.notes;
  edit jsonb;
  new_fields jsonb;
  new_tags text[];
  final_fields jsonb;
  conflict_fields text[];
  not_pending jsonb;
  conflicts jsonb := '[]';
  created_id uuid;
begin
  if p_decision is null or p_decision not in ('accept', 'reject') then
    perform private.fail('22023', 'the decision is accept or reject', 'decision');
  elsif coalesce(cardinality(p_ids), 0) = 0 then
    perform private.fail('22023', 'choose at least one suggestion', 'ids');
  elsif cardinality(p_ids) > 200 then
    perform private.fail('22023', 'review at most 200 suggestions at once', 'ids');
  elsif (select count(distinct id) from unnest(p_ids) as t(id)) <> cardinality(p_ids) or array_position(p_ids, null) is not null then
    perform private.fail('22023', 'name each suggestion once', 'ids');
  elsif char_length(coalesce(p_reason, '')) > 1000 then
    perform private.fail('22023', 'a reason is at most 1000 characters', 'reason');
  elsif p_edits is not null and (jsonb_typeof(p_edits) <> 'object' or exists (
      select 1 from jsonb_each(p_edits) as e(key, value)
      where e.key <> all (p_ids::text[]) or jsonb_typeof(e.value) <> 'object'
        or e.value - array['fields', 'tags'] <> '{}'::jsonb)) then
    perform private.fail('22023', 'edits name suggestions of this review, each with fields and tags', 'edits');
  elsif p_edits is not null and p_decision = 'reject' then
    perform private.fail('22023', 'only an accepted suggestion can be edited', 'edits');
  end if;

  perform 1 from public.note_suggestions where id = any (p_ids) order by id for update;
  if (select count(*) from public.note_suggestions
      where id = any (p_ids) and (author_id = uid or private.can_edit_deck(deck_id))) <> cardinality(p_ids) then
    perform private.fail('PT404', 'suggestion not found', 'ids');
  elsif exists (select 1 from public.note_suggestions where id = any (p_ids) and not private.can_edit_deck(deck_id)) then
    perform private.fail('42501', 'only the owner and editors of a deck review its suggestions');
  end if;
  select jsonb_agg(jsonb_build_object('id', id, 'status', status) order by id) into not_pending
  from public.note_suggestions where id = any (p_ids) and status <> 'pending';
  if not_pending is not null then
    perform private.fail('PT409', 'some of these suggestions were already reviewed or closed',
      jsonb_build_object('suggestions', not_pending)::text);
  end if;

  if p_decision = 'reject' then
    return query
      update public.note_suggestions
      set status = 'rejected', review_reason = nullif(private.trim_space(coalesce(p_reason, '')), ''),
        reviewer_id = uid, reviewed_at = now()
      where id = any (p_ids)
      returning *;
    return;
  end if;

  -- Marked accepted first, so deleting a note does not close the suggestion
  -- that deleted it.
  update public.note_suggestions
  set status = 'accepted', review_reason = nullif(private.trim_space(coalesce(p_reason, '')), ''),
    reviewer_id = uid, reviewed_at = now()
  where id = any (p_ids);

  for s in select * from public.note_suggestions where id = any (p_ids) order by created_at, id loop
    edit := coalesce(p_edits -> s.id::text, '{}');
    if edit ? 'tags' and jsonb_typeof(edit -> 'tags') is distinct from 'array' then
      perform private.fail('22023', 'tags must be a list', 'edits');
    end if;
    new_fields := coalesce(edit -> 'fields', s.fields);
    new_tags := case when edit ? 'tags' then array(select jsonb_array_elements_text(edit -> 'tags')) else s.tags end;
    if s.action = 'create' then
      insert into public.notes (deck_id, kind, note_type_id, fields, tags, created_by, co_author_id)
      values (s.deck_id, s.kind, s.note_type_id, new_fields, new_tags, uid, s.author_id)
      returning id into created_id;
      update public.note_suggestions set note_id = created_id where id = s.id;
      continue;
    end if;

    select * into note from public.notes where id = s.note_id for update;
    if note.id is null then
      conflicts := conflicts || jsonb_build_object('id', s.id, 'fields', '[]'::jsonb, 'note', 'deleted');
      continue;
    end if;
    if s.action = 'delete' then
      delete from public.notes where id = note.id;
      continue;
    end if;
    conflict_fields := '{}';
    -- The reviewer's edit is the note's content as they resolved it.
    if edit ? 'fields' or note.version = s.base_version then
      final_fields := new_fields;
    else
      select m.fields, m.conflicts into final_fields, conflict_fields
      from private.merge_suggested_fields(s.base_fields, new_fields, note.fields) as m;
    end if;
    if cardinality(conflict_fields) > 0 then
      conflicts := conflicts || jsonb_build_object('id', s.id, 'fields', to_jsonb(conflict_fields));
      continue;
    end if;
    if not (edit ? 'tags') and note.version <> s.base_version then
      new_tags := private.merge_suggested_tags(s.base_tags, new_tags, note.tags);
    end if;
    update public.notes set fields = final_fields, tags = new_tags, co_author_id = s.author_id where id = note.id;
  end loop;

  if jsonb_array_length(conflicts) > 0 then
    perform private.fail('PT409', 'some suggestions change fields that were changed since: edit them first',
      jsonb_build_object('conflicts', conflicts)::text);
  end if;
  return query select * from public.note_suggestions where id = any (p_ids) order by created_at, id;
end
$$;

revoke execute on function public.review_suggestions(uuid[], text, text, jsonb) from public, anon;
grant execute on function public.review_suggestions(uuid[], text, text, jsonb) to authenticated, service_role;

-- The review queue of a deck for its owner and editors, oldest first: each
-- pending suggestion with its author's name and the note as it is now (null
-- when it is a new note), and whether the note changed since it was made.
create function public.pending_suggestions(p_deck_id uuid)
returns table (
  id uuid,
  deck_id uuid,
  note_id uuid,
  author_id uuid,
  author_name text,
  action public.suggestion_action,
  kind public.note_kind,
  note_type_id uuid,
  fields jsonb,
  tags text[],
  rationale text,
  base_version integer,
  base_fields jsonb,
  base_tags text[],
  created_at timestamptz,
  current_version integer,
  current_fields jsonb,
  current_tags text[],
  changed_since boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.can_edit_deck(p_deck_id) then
    perform private.fail('42501', 'only the owner and editors of a deck review its suggestions');
  end if;
  return query
    select s.id, s.deck_id, s.note_id, s.author_id, coalesce(p.display_name, ''), s.action, s.kind, s.note_type_id,
      s.fields, s.tags, s.rationale, s.base_version, s.base_fields, s.base_tags, s.created_at,
      n.version, n.fields, n.tags, n.version is distinct from s.base_version and s.action <> 'create'
    from public.note_suggestions s
    left join public.notes n on n.id = s.note_id
    left join public.profiles p on p.id = s.author_id
    where s.deck_id = p_deck_id and s.status = 'pending'
    order by s.created_at, s.id;
end
$$;

revoke execute on function public.pending_suggestions(uuid) from public, anon;
grant execute on function public.pending_suggestions(uuid) to authenticated, service_role;

-- Pending suggestions close when their note is deleted, when their author
-- leaves or is removed from the deck, and when the deck stops taking them
-- from the author (suggestions_from, or a deck that is no longer public);
-- one update per statement.
create function private.close_suggestions_of_deleted_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.note_suggestions s
  set status = 'closed', closed_because = 'note_deleted', reviewed_at = now()
  where s.status = 'pending' and s.note_id in (select id from deleted_notes);
  return null;
end
$$;

create function private.close_suggestions_of_removed_members() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.note_suggestions s
  set status = 'closed', closed_because = 'not_allowed', reviewed_at = now()
  from removed_members m
  where s.status = 'pending' and s.deck_id = m.deck_id and s.author_id = m.user_id;
  return null;
end
$$;

create function private.close_suggestions_no_longer_allowed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.note_suggestions s
  set status = 'closed', closed_because = 'not_allowed', reviewed_at = now()
  from changed_decks d
  join old_decks o on o.id = d.id
  where s.status = 'pending' and s.deck_id = d.id
    and (d.suggestions_from, d.is_public) is distinct from (o.suggestions_from, o.is_public)
    and (
      d.suggestions_from = 'nobody'
      or (not (d.suggestions_from = 'public' and d.is_public)
        and not exists (select 1 from public.deck_members m where m.deck_id = d.id and m.user_id = s.author_id))
    );
  return null;
end
$$;

revoke execute on function private.close_suggestions_of_deleted_notes(), private.close_suggestions_of_removed_members(),
  private.close_suggestions_no_longer_allowed() from public, anon, authenticated;

create trigger notes_close_suggestions after delete on public.notes
  referencing old table as deleted_notes
  for each statement execute function private.close_suggestions_of_deleted_notes();
create trigger deck_members_close_suggestions after delete on public.deck_members
  referencing old table as removed_members
  for each statement execute function private.close_suggestions_of_removed_members();
create trigger decks_close_suggestions after update on public.decks
  referencing old table as old_decks new table as changed_decks
  for each statement execute function private.close_suggestions_no_longer_allowed();
