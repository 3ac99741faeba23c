-- Notes carry a version that every change of kind, fields, tags or deck
-- bumps. An update that sets it states the version it was made from and is
-- refused (PT412) when the note has changed since, so a stale editor never
-- overwrites another's edit.
alter table public.notes add column version integer not null default 1;

create or replace function private.prepare_note() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if new.version is distinct from old.version then
      perform private.fail('PT412', 'this note was changed since it was loaded',
        jsonb_build_object('version', old.version)::text);
    end if;
    if (new.kind, new.fields, new.tags, new.deck_id) is distinct from (old.kind, old.fields, old.tags, old.deck_id) then
      new.version := old.version + 1;
    end if;
    new.updated_at := now();
    new.created_by := old.created_by;
  end if;
  new.search := to_tsvector('simple'::regconfig, concat_ws(' ',
    private.strip_markup(new.fields ->> 'front'),
    private.strip_markup(new.fields ->> 'back'),
    private.strip_markup(new.fields ->> 'text'),
    private.strip_markup(new.fields ->> 'extra'),
    array_to_string(new.tags, ' ')));
  return new;
end
$$;

grant update (version) on public.notes to authenticated;
