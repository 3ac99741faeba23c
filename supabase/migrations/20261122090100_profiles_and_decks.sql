-- Profiles, decks and who belongs to them.

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
  updated_at timestamptz not null default now()
);
alter table public.decks enable row level security;
create index decks_owner_id_idx on public.decks (owner_id);
create index decks_public_idx on public.decks (created_at desc) where is_public;

create trigger decks_touch before update on public.decks
  for each row execute function private.touch_updated_at();

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

-- The creator of a deck becomes its owner member.
create function private.add_deck_owner() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.deck_members (deck_id, user_id, role) values (new.id, new.owner_id, 'owner');
  return new;
end
$$;

create trigger decks_add_owner after insert on public.decks
  for each row execute function private.add_deck_owner();

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

create function private.can_read_deck(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.deck_members where deck_id = p_deck_id and user_id = auth.uid())
      or exists (select 1 from public.decks where id = p_deck_id and is_public)
$$;

create function private.can_edit_deck(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.deck_members
    where deck_id = p_deck_id and user_id = auth.uid() and role in ('owner', 'editor')
  )
$$;

create function private.is_deck_owner(p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.deck_members where deck_id = p_deck_id and user_id = auth.uid() and role = 'owner'
  )
$$;

revoke execute on all functions in schema private from public;
grant execute on all functions in schema private to anon, authenticated, service_role;

-- profiles: each user reads and edits only their own.
create policy "users read their own profile" on public.profiles
  for select to authenticated using (id = (select auth.uid()));
create policy "users update their own profile" on public.profiles
  for update to authenticated using (id = (select auth.uid())) with check (id = (select auth.uid()));
revoke insert, update, delete on public.profiles from anon, authenticated;
grant update (display_name, avatar_path, timezone, day_starts_at, desired_retention, fsrs_params, new_per_day, reviews_per_day)
  on public.profiles to authenticated;

-- decks
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
revoke insert, update, delete on public.decks from anon;
revoke update on public.decks from authenticated;
grant update (name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at)
  on public.decks to authenticated;

-- deck_members
create policy "members read co-members" on public.deck_members
  for select to authenticated using (deck_id in (select private.member_deck_ids()));
create policy "owners add members" on public.deck_members
  for insert to authenticated with check (private.is_deck_owner(deck_id) and role <> 'owner');
create policy "owners change member roles" on public.deck_members
  for update to authenticated
  using (private.is_deck_owner(deck_id) and role <> 'owner')
  with check (role <> 'owner');
create policy "owners remove members" on public.deck_members
  for delete to authenticated using (private.is_deck_owner(deck_id) and role <> 'owner');
create policy "members leave decks they do not own" on public.deck_members
  for delete to authenticated using (user_id = (select auth.uid()) and role <> 'owner');
revoke insert, update, delete on public.deck_members from anon;
revoke update on public.deck_members from authenticated;
grant update (role) on public.deck_members to authenticated;

-- deck_invites: only owners see and revoke them; they are created by create_invite
-- (which applies the per-deck quota) and accepted by token with accept_invite.
create policy "owners read invites" on public.deck_invites
  for select to authenticated using (private.is_deck_owner(deck_id));
-- Revoking is final: revoked_at can be set but never cleared.
create policy "owners revoke invites" on public.deck_invites
  for update to authenticated
  using (private.is_deck_owner(deck_id) and revoked_at is null)
  with check (private.is_deck_owner(deck_id) and revoked_at is not null);
create policy "owners delete invites" on public.deck_invites
  for delete to authenticated using (private.is_deck_owner(deck_id));
revoke all on public.deck_invites from anon;
revoke insert, update on public.deck_invites from authenticated;
grant update (revoked_at) on public.deck_invites to authenticated;
