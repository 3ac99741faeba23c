-- Profiles, decks and who belongs to them.
--
-- Privileges: new hosted projects no longer grant new tables to anon,
-- authenticated and service_role by default, and older ones grant them
-- everything; revoking first and then granting makes both end the same.
-- Row-level security still decides which rows; the grants decide which
-- statements (and, for INSERT and UPDATE, which columns) are possible at
-- all. The service role (edge functions, administration) bypasses RLS and
-- may write everything.
--
-- Two-factor sign-in is enforced by the database, as Supabase documents it:
-- every table in public has the restrictive policy "two-factor sessions
-- only", so whatever the permissive policies allow, a signed-in user also
-- needs private.aal_satisfied() (an aal2 session, or no verified factor).
-- A new table needs the same policy.

-- profiles: each user reads and edits only their own; created by the sign-up trigger.
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null default '' constraint profiles_display_name_length check (char_length(display_name) <= 80),
  avatar_path text,
  timezone text not null default 'UTC' constraint profiles_timezone_valid check (private.is_valid_timezone(timezone)),
  day_starts_at smallint not null default 4 constraint profiles_day_starts_at_range check (day_starts_at between 0 and 23),
  desired_retention double precision not null default 0.9
    constraint profiles_desired_retention_range check (desired_retention between 0.70 and 0.99),
  fsrs_params double precision[] constraint profiles_fsrs_params_shape
    check (fsrs_params is null or (array_ndims(fsrs_params) = 1 and cardinality(fsrs_params) = 21)),
  new_per_day integer not null default 20 constraint profiles_new_per_day_range check (new_per_day between 0 and 9999),
  reviews_per_day integer not null default 200 constraint profiles_reviews_per_day_range check (reviews_per_day between 0 and 9999),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.profiles enable row level security;

create trigger profiles_touch before update on public.profiles
  for each row execute function private.touch_updated_at();

-- A profile for every new user; the sign-up form may pass display_name and timezone.
create function private.create_profile_for_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  tz text := new.raw_user_meta_data ->> 'timezone';
begin
  insert into public.profiles (id, display_name, timezone)
  values (
    new.id,
    left(coalesce(nullif(btrim(new.raw_user_meta_data ->> 'display_name'), ''), split_part(coalesce(new.email, ''), '@', 1)), 80),
    case when tz is not null and private.is_valid_timezone(tz) then tz else 'UTC' end
  );
  return new;
end
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.create_profile_for_user();

create policy "users read their own profile" on public.profiles
  for select to authenticated using (id = (select auth.uid()));
create policy "users update their own profile" on public.profiles
  for update to authenticated using (id = (select auth.uid())) with check (id = (select auth.uid()));
create policy "two-factor sessions only" on public.profiles as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.profiles from anon, authenticated, service_role;
grant select, insert, update, delete on public.profiles to service_role;
grant select on public.profiles to anon, authenticated;
grant update (display_name, avatar_path, timezone, day_starts_at, desired_retention, fsrs_params,
  new_per_day, reviews_per_day)
  on public.profiles to authenticated;

-- decks: created and deleted by their owner; owner_id is fixed.
create type public.leech_action as enum ('suspend', 'tag_only');

create table public.decks (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null constraint decks_name_length
    check (char_length(private.trim_space(name)) between 1 and 120),
  description text not null default '' constraint decks_description_length check (char_length(description) <= 2000),
  is_public boolean not null default false,
  cover_path text,
  new_per_day integer constraint decks_new_per_day_range check (new_per_day between 0 and 9999),
  reviews_per_day integer constraint decks_reviews_per_day_range check (reviews_per_day between 0 and 9999),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Where a copy came from, and how many copies of a deck exist. Only
  -- clone_deck sets cloned_from; the counter follows copies being made and
  -- deleted (a copy whose media failed to copy is deleted again, so it leaves
  -- no count behind).
  clone_count integer not null default 0 constraint decks_clone_count_range check (clone_count >= 0),
  cloned_from uuid references public.decks (id) on delete set null,
  -- Leeches (see record_review), set by the owner like the daily limits.
  leech_threshold integer not null default 8
    constraint decks_leech_threshold_range check (leech_threshold between 1 and 99),
  leech_action public.leech_action not null default 'suspend',
  -- Siblings buried in the study queue (see private.session_cards). Learning
  -- cards on steps of a day or more are buried only when asked, as in Anki;
  -- those due within the day never are.
  bury_new boolean not null default true,
  bury_reviews boolean not null default true,
  bury_interday_learning boolean not null default false,
  -- Subdecks, as Anki's deck tree: a deck's name is its own component
  -- ("Board Review 2023"), its path ("Old Decks › Board Review 2023") comes
  -- from its parents. Deleting a deck deletes its subdecks. A tree has one
  -- owner and is at most 10 decks deep (private.check_deck_parent).
  parent_id uuid references public.decks (id) on delete cascade
);
alter table public.decks enable row level security;
create index decks_parent_id_idx on public.decks (parent_id) where parent_id is not null;
create index decks_owner_id_idx on public.decks (owner_id);
create index decks_public_idx on public.decks (created_at desc) where is_public;
create index decks_cloned_from_idx on public.decks (cloned_from) where cloned_from is not null;

-- Someone copying a deck, or its source going away, is not an edit of the
-- deck: its updated_at stays. Clients cannot write either column.
create trigger decks_touch before update on public.decks
  for each row when (old.clone_count = new.clone_count and old.cloned_from is not distinct from new.cloned_from)
  execute function private.touch_updated_at();

-- deck_members: nobody is made a member of a deck without their consent: a
-- user joins only by accepting an invite (accept_invite) or by creating the
-- deck (the owner trigger), both security definer. Owners still change roles
-- and remove members through the update and delete policies.
create table public.deck_members (
  deck_id uuid not null references public.decks (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.deck_role not null,
  created_at timestamptz not null default now(),
  primary key (deck_id, user_id)
);
alter table public.deck_members enable row level security;
create index deck_members_user_id_idx on public.deck_members (user_id);
create unique index deck_members_one_owner on public.deck_members (deck_id) where role = 'owner';

-- The creator of a deck becomes its owner member; a deck start_import makes
-- for a finish in steps, once the import is in (the setting is not reachable
-- through the API).
create function private.add_deck_owner() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if current_setting('engram.owner_joins_when_imported', true) is distinct from 'true' then
    insert into public.deck_members (deck_id, user_id, role) values (new.id, new.owner_id, 'owner');
  end if;
  return new;
end
$$;

create trigger decks_add_owner after insert on public.decks
  for each row execute function private.add_deck_owner();

-- Where a deck may sit in a tree. Only the owner of a deck adds subdecks to
-- it or moves decks under it, and a subdeck has its parent's owner, so
-- deleting a deck (which deletes its subdecks) never takes another user's
-- deck. No deck is its own ancestor and a tree is at most 10 decks deep.
-- Handing a deck to another owner takes it out of its tree, and its
-- subdecks, which stay with the previous owner, out of it.
-- The parent row is locked (for share) so that two moves that would close a
-- loop together wait for each other, and the second one sees the first.
create function private.check_deck_parent() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  parent_owner uuid;
  loops boolean;
  parent_depth integer;
  sub_height integer;
begin
  if tg_op = 'UPDATE' and new.owner_id <> old.owner_id then
    new.parent_id := null;
    update public.decks set parent_id = null where parent_id = new.id and owner_id <> new.owner_id;
    return new;
  end if;
  if new.parent_id is null or (tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id) then
    return new;
  end if;
  select owner_id into parent_owner from public.decks where id = new.parent_id for share;
  if not found then
    perform private.fail('PT404', 'the parent deck does not exist', 'parent_id');
  -- (its owner by the deck row too: an import's new deck has no member until it is revealed)
  elsif auth.uid() is not null and parent_owner is distinct from auth.uid() and not private.is_deck_owner(new.parent_id) then
    perform private.fail('42501', 'only the owner of a deck can add subdecks to it', 'parent_id');
  elsif parent_owner <> new.owner_id then
    perform private.fail('22023', 'a subdeck belongs to the owner of its parent', 'parent_id');
  end if;
  -- The parent's ancestors (the parent at depth 1): does the chain reach this deck?
  with recursive up (id, parent_id, depth) as (
    select d.id, d.parent_id, 1 from public.decks d where d.id = new.parent_id
    union all
    select d.id, d.parent_id, up.depth + 1 from public.decks d join up on d.id = up.parent_id
    where up.depth <= 11
  )
  select bool_or(up.id = new.id), max(up.depth) into loops, parent_depth from up;
  if loops then
    perform private.fail('22023', 'a deck cannot go inside itself or one of its subdecks', 'parent_id');
  end if;
  -- How many levels this deck and its subdecks span (1 for a deck without any).
  sub_height := 1;
  if tg_op = 'UPDATE' then
    with recursive down (id, level) as (
      select new.id, 1
      union all
      select d.id, down.level + 1 from public.decks d join down on d.parent_id = down.id
      where down.level <= 11
    )
    select max(down.level) into sub_height from down;
  end if;
  if parent_depth + sub_height > 10 then
    perform private.fail('22023', 'decks nest at most 10 levels deep', 'parent_id');
  end if;
  return new;
end
$$;

create trigger decks_check_parent before insert or update of parent_id, owner_id on public.decks
  for each row execute function private.check_deck_parent();

-- A new subdeck starts with its parent's members in their roles, so a shared
-- tree stays shared as it grows; later invites and role changes are per deck.
-- (Runs after decks_add_owner: triggers fire in name order.)
create function private.copy_parent_members() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.deck_members (deck_id, user_id, role)
  select new.id, m.user_id, m.role
  from public.deck_members m
  where m.deck_id = new.parent_id and m.role <> 'owner' and m.user_id <> new.owner_id
  on conflict do nothing;
  return new;
end
$$;

create trigger decks_copy_parent_members after insert on public.decks
  for each row when (new.parent_id is not null) execute function private.copy_parent_members();

revoke execute on function private.check_deck_parent(), private.copy_parent_members()
  from anon, authenticated, service_role;

-- deck_invites: only owners see and revoke them; they are created by create_invite
-- (which applies the per-deck quota) and accepted by token with accept_invite.
create table public.deck_invites (
  id uuid primary key default gen_random_uuid(),
  token text not null unique
    default translate(encode(extensions.gen_random_bytes(24), 'base64'), '+/', '-_'),
  deck_id uuid not null references public.decks (id) on delete cascade,
  role public.deck_role not null default 'viewer' constraint deck_invites_role_not_owner check (role <> 'owner'),
  expires_at timestamptz not null default now() + interval '7 days',
  max_uses integer constraint deck_invites_max_uses_range check (max_uses between 1 and 1000),
  uses integer not null default 0 constraint deck_invites_uses_range check (uses >= 0 and (max_uses is null or uses <= max_uses)),
  created_by uuid not null default auth.uid() references auth.users (id) on delete cascade,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
alter table public.deck_invites enable row level security;
create index deck_invites_deck_id_idx on public.deck_invites (deck_id);

-- Membership lookups for policies. Security definer so that a policy on
-- deck_members (or decks) can call them without recursing into itself.
create function private.deck_role(p_deck_id uuid) returns public.deck_role
language sql stable security definer
set search_path = ''
as $$
  select role from public.deck_members where deck_id = p_deck_id and user_id = auth.uid()
$$;

create function private.member_deck_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select deck_id from public.deck_members where user_id = auth.uid()
$$;

create function private.readable_deck_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select deck_id from public.deck_members where user_id = auth.uid()
  union
  select id from public.decks where is_public
$$;

-- The owner of a deck is its member, but for a deck being imported in steps,
-- which gains its owner member last (finish_import): its owner already reads
-- and edits it (its media go up first), though it is listed and studied only then.
create function private.can_read_deck(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.deck_members where deck_id = p_deck_id and user_id = auth.uid())
      or exists (select 1 from public.decks where id = p_deck_id and (is_public or owner_id = auth.uid()))
$$;

-- Where copies came from, for whoever may read both the copy and its source:
-- a public copy of a private deck does not name it to strangers. Looks at
-- p_deck_ids, or at every deck the caller is a member of when it is null, and
-- lists only copies whose source is shown.
create function public.deck_sources(p_deck_ids uuid[] default null)
returns table (deck_id uuid, cloned_from uuid)
language sql stable security definer
set search_path = ''
as $$
  select d.id, d.cloned_from
  from public.decks d
  where d.id = any(coalesce(p_deck_ids, array(select private.member_deck_ids())))
    and d.cloned_from is not null
    and (select private.aal_satisfied())
    and private.can_read_deck(d.id)
    and private.can_read_deck(d.cloned_from)
$$;

revoke execute on function public.deck_sources(uuid[]) from public;
grant execute on function public.deck_sources(uuid[]) to anon, authenticated, service_role;

create function private.can_edit_deck(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.deck_members
    where deck_id = p_deck_id and user_id = auth.uid() and role in ('owner', 'editor')
  ) or exists (select 1 from public.decks where id = p_deck_id and owner_id = auth.uid())
$$;

create function private.is_deck_owner(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.deck_members where deck_id = p_deck_id and user_id = auth.uid() and role = 'owner'
  )
$$;

create policy "anyone reads public decks" on public.decks
  for select to anon, authenticated using (is_public);
create policy "members read their decks" on public.decks
  for select to authenticated using (id in (select private.member_deck_ids()));
-- Also by owner_id: INSERT ... RETURNING checks the new row before the trigger adds the owner member.
create policy "owners read their decks" on public.decks
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "users create decks they own" on public.decks
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "owners update their decks" on public.decks
  for update to authenticated using (private.is_deck_owner(id)) with check (private.is_deck_owner(id));
create policy "owners delete their decks" on public.decks
  for delete to authenticated using (private.is_deck_owner(id));
create policy "two-factor sessions only" on public.decks as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- Inserts and updates name their columns, so clone_count and cloned_from stay out of clients' reach.
-- Reads name them too: cloned_from may name a private deck, so the API roles
-- read it only through deck_sources (a new column is granted here by name).
revoke all on public.decks from anon, authenticated, service_role;
grant select, insert, update, delete on public.decks to service_role;
grant select (id, owner_id, name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at,
    created_at, updated_at, clone_count, leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning,
    parent_id)
  on public.decks to anon, authenticated;
grant delete on public.decks to authenticated;
grant insert (id, owner_id, name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at,
    created_at, updated_at, leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning, parent_id),
  update (name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at,
    leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning, parent_id)
  on public.decks to authenticated;

-- Moves a deck under another (or to the top level with a null parent). The
-- caller owns both; the trigger above refuses loops and trees over 10 deep.
create function public.set_deck_parent(p_deck_id uuid, p_parent_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.is_deck_owner(p_deck_id) then
    perform private.fail('42501', 'only the owner of a deck can move it');
  elsif p_parent_id is not null and not private.can_read_deck(p_parent_id) then
    perform private.fail('PT404', 'the parent deck does not exist', 'parent_id');
  end if;
  update public.decks set parent_id = p_parent_id where id = p_deck_id;
end
$$;

revoke execute on function public.set_deck_parent(uuid, uuid) from public, anon;
grant execute on function public.set_deck_parent(uuid, uuid) to authenticated, service_role;

create policy "members read co-members" on public.deck_members
  for select to authenticated using (deck_id in (select private.member_deck_ids()));
create policy "owners change member roles" on public.deck_members
  for update to authenticated
  using (private.is_deck_owner(deck_id) and role <> 'owner')
  with check (role <> 'owner');
create policy "owners remove members" on public.deck_members
  for delete to authenticated using (private.is_deck_owner(deck_id) and role <> 'owner');
create policy "members leave decks they do not own" on public.deck_members
  for delete to authenticated using (user_id = (select auth.uid()) and role <> 'owner');
create policy "two-factor sessions only" on public.deck_members as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.deck_members from anon, authenticated, service_role;
grant select, insert, update, delete on public.deck_members to service_role;
grant select on public.deck_members to anon;
grant select, delete on public.deck_members to authenticated;
grant update (role) on public.deck_members to authenticated;

create policy "owners read invites" on public.deck_invites
  for select to authenticated using (private.is_deck_owner(deck_id));
-- Revoking is final: revoked_at can be set but never cleared.
create policy "owners revoke invites" on public.deck_invites
  for update to authenticated
  using (private.is_deck_owner(deck_id) and revoked_at is null)
  with check (private.is_deck_owner(deck_id) and revoked_at is not null);
create policy "owners delete invites" on public.deck_invites
  for delete to authenticated using (private.is_deck_owner(deck_id));
create policy "two-factor sessions only" on public.deck_invites as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.deck_invites from anon, authenticated, service_role;
grant select, insert, update, delete on public.deck_invites to service_role;
grant select, delete on public.deck_invites to authenticated;
grant update (revoked_at) on public.deck_invites to authenticated;

-- deck_presets: Anki's deck option groups. A user's named set of study options
-- (daily limits, leeches, burying) that several of their decks share. The
-- study queue reads each deck's own columns, so a deck using a preset holds
-- the preset's values: choosing a preset copies them into the deck, and a
-- change to a preset is written to every deck using it in one update. Writing
-- one of these options on the deck itself, to a value other than its
-- preset's, takes the deck off its preset (it keeps the values written).
-- Deleting a preset leaves its decks with the values they have; a deck handed
-- to another owner leaves its preset, which stays with its owner.
create table public.deck_presets (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null constraint deck_presets_name_length
    check (name = private.trim_space(name) and char_length(name) between 1 and 120),
  new_per_day integer constraint deck_presets_new_per_day_range check (new_per_day between 0 and 9999),
  reviews_per_day integer constraint deck_presets_reviews_per_day_range check (reviews_per_day between 0 and 9999),
  leech_threshold integer not null default 8
    constraint deck_presets_leech_threshold_range check (leech_threshold between 1 and 99),
  leech_action public.leech_action not null default 'suspend',
  bury_new boolean not null default true,
  bury_reviews boolean not null default true,
  bury_interday_learning boolean not null default false,
  -- Anki's deck options id, kept so a package imported again finds its preset.
  source_id bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint deck_presets_owner_name_key unique (owner_id, name)
);
alter table public.deck_presets enable row level security;

create trigger deck_presets_touch before update on public.deck_presets
  for each row execute function private.touch_updated_at();

alter table public.decks add column preset_id uuid references public.deck_presets (id) on delete set null;
create index decks_preset_id_idx on public.decks (preset_id) where preset_id is not null;

-- Keeps a deck's options equal to its preset's (see deck_presets above).
-- Choosing a preset that is not the deck owner's (or does not exist) is
-- refused alike with 22023, so nobody learns another user's preset ids.
create function private.apply_deck_preset() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  preset public.deck_presets;
begin
  if tg_op = 'UPDATE' and new.owner_id <> old.owner_id then
    new.preset_id := null;
    return new;
  end if;
  if new.preset_id is null then
    return new;
  end if;
  select * into preset from public.deck_presets where id = new.preset_id;
  if tg_op = 'INSERT' or new.preset_id is distinct from old.preset_id then
    if preset.id is null or preset.owner_id <> new.owner_id then
      perform private.fail('22023', 'a deck can use only a preset of its owner''s', 'preset_id');
    end if;
  elsif (new.new_per_day, new.reviews_per_day, new.leech_threshold, new.leech_action, new.bury_new,
      new.bury_reviews, new.bury_interday_learning)
    is distinct from (preset.new_per_day, preset.reviews_per_day, preset.leech_threshold, preset.leech_action,
      preset.bury_new, preset.bury_reviews, preset.bury_interday_learning) then
    new.preset_id := null;
    return new;
  end if;
  new.new_per_day := preset.new_per_day;
  new.reviews_per_day := preset.reviews_per_day;
  new.leech_threshold := preset.leech_threshold;
  new.leech_action := preset.leech_action;
  new.bury_new := preset.bury_new;
  new.bury_reviews := preset.bury_reviews;
  new.bury_interday_learning := preset.bury_interday_learning;
  return new;
end
$$;

create trigger decks_apply_preset before insert or update of preset_id, owner_id, new_per_day, reviews_per_day,
    leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning on public.decks
  for each row execute function private.apply_deck_preset();

-- A changed preset reaches every deck using it, in one update per statement.
-- Security definer: the decks are the preset owner's, but the update must not
-- depend on the caller's column privileges.
create function private.propagate_deck_presets() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.decks d
  set new_per_day = p.new_per_day, reviews_per_day = p.reviews_per_day, leech_threshold = p.leech_threshold,
    leech_action = p.leech_action, bury_new = p.bury_new, bury_reviews = p.bury_reviews,
    bury_interday_learning = p.bury_interday_learning
  from new_rows p
  where d.preset_id = p.id
    and (d.new_per_day, d.reviews_per_day, d.leech_threshold, d.leech_action, d.bury_new, d.bury_reviews,
      d.bury_interday_learning)
    is distinct from (p.new_per_day, p.reviews_per_day, p.leech_threshold, p.leech_action, p.bury_new,
      p.bury_reviews, p.bury_interday_learning);
  return null;
end
$$;

create trigger deck_presets_propagate after update on public.deck_presets
  referencing new table as new_rows
  for each statement execute function private.propagate_deck_presets();

revoke execute on function private.apply_deck_preset(), private.propagate_deck_presets()
  from anon, authenticated, service_role;

create policy "users read their own presets" on public.deck_presets
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "users create presets they own" on public.deck_presets
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "users change their own presets" on public.deck_presets
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "users delete their own presets" on public.deck_presets
  for delete to authenticated using (owner_id = (select auth.uid()));
create policy "two-factor sessions only" on public.deck_presets as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- source_id is written only by imports (finish_import).
revoke all on public.deck_presets from anon, authenticated, service_role;
grant select, insert, update, delete on public.deck_presets to service_role;
grant select, delete on public.deck_presets to authenticated;
grant insert (id, owner_id, name, new_per_day, reviews_per_day, leech_threshold, leech_action, bury_new, bury_reviews,
    bury_interday_learning),
  update (name, new_per_day, reviews_per_day, leech_threshold, leech_action, bury_new, bury_reviews,
    bury_interday_learning)
  on public.deck_presets to authenticated;
-- Which preset a deck uses is read with the deck and chosen through set_deck_preset.
grant select (preset_id) on public.decks to anon, authenticated;

-- Makes a deck use one of its owner's presets (copying its options into the
-- deck), or none (null: the deck keeps its current options as its own).
create function public.set_deck_preset(p_deck_id uuid, p_preset_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.is_deck_owner(p_deck_id) then
    perform private.fail('42501', 'only the owner of a deck can choose its preset');
  end if;
  update public.decks set preset_id = p_preset_id where id = p_deck_id;
end
$$;

revoke execute on function public.set_deck_preset(uuid, uuid) from public, anon;
grant execute on function public.set_deck_preset(uuid, uuid) to authenticated, service_role;
