-- Deck presets (Anki's deck option groups): public.deck_presets, decks.preset_id
-- kept equal to the preset's options by triggers, and set_deck_preset.

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
