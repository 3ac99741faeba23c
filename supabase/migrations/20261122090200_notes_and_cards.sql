-- Notes, the cards generated from them, and each member's schedule for them.

create table public.notes (
  id uuid primary key default gen_random_uuid(),
  deck_id uuid not null references public.decks (id) on delete cascade,
  kind public.note_kind not null,
  fields jsonb not null,
  tags text[] not null default '{}',
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  search tsvector,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint notes_fields_shape check (
    case kind
      when 'cloze' then jsonb_typeof(fields -> 'text') = 'string'
        and jsonb_typeof(coalesce(fields -> 'extra', '""')) = 'string'
        and fields - array['text', 'extra'] = '{}'::jsonb
      else jsonb_typeof(fields -> 'front') = 'string'
        and jsonb_typeof(fields -> 'back') = 'string'
        and fields - array['front', 'back'] = '{}'::jsonb
    end
  ),
  constraint notes_front_required check (kind = 'cloze' or private.has_content(fields ->> 'front')),
  constraint notes_back_required check (kind = 'cloze' or private.has_content(fields ->> 'back')),
  constraint notes_cloze_required check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) > 0),
  constraint notes_field_length check (
    char_length(coalesce(fields ->> 'front', '')) <= 20000
    and char_length(coalesce(fields ->> 'back', '')) <= 20000
    and char_length(coalesce(fields ->> 'text', '')) <= 20000
    and char_length(coalesce(fields ->> 'extra', '')) <= 20000
  ),
  constraint notes_tags_count check (cardinality(tags) <= 50),
  constraint notes_tags_format check (private.tags_valid(tags))
);
alter table public.notes enable row level security;
create index notes_deck_id_created_at_idx on public.notes (deck_id, created_at, id);
create index notes_search_idx on public.notes using gin (search);
create index notes_tags_idx on public.notes using gin (tags);

-- Keeps updated_at and the search vector (fields without markup, plus tags).
create function private.prepare_note() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
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

create trigger notes_prepare before insert or update on public.notes
  for each row execute function private.prepare_note();

create table public.cards (
  id uuid primary key default gen_random_uuid(),
  note_id uuid not null references public.notes (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  ordinal integer not null constraint cards_ordinal_positive check (ordinal >= 1),
  created_at timestamptz not null default now(),
  unique (note_id, ordinal)
);
alter table public.cards enable row level security;
create index cards_deck_id_idx on public.cards (deck_id);

-- The schedule of one card for one user. Every member of a deck has a row for
-- each of its cards (state 'new' until first studied), so the study queue is
-- an index range scan instead of an anti-join over the whole deck.
create table public.card_states (
  user_id uuid not null references auth.users (id) on delete cascade,
  card_id uuid not null references public.cards (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  state public.card_state not null default 'new',
  due timestamptz not null default now(),
  stability double precision not null default 0 constraint card_states_stability_range check (stability >= 0),
  difficulty double precision not null default 0 constraint card_states_difficulty_range check (difficulty between 0 and 10),
  elapsed_days integer not null default 0 constraint card_states_elapsed_days_range check (elapsed_days >= 0),
  scheduled_days integer not null default 0 constraint card_states_scheduled_days_range check (scheduled_days between 0 and 36500),
  learning_steps integer not null default 0 constraint card_states_learning_steps_range check (learning_steps >= 0),
  reps integer not null default 0 constraint card_states_reps_range check (reps >= 0),
  lapses integer not null default 0 constraint card_states_lapses_range check (lapses >= 0),
  last_review timestamptz,
  suspended boolean not null default false,
  buried_until timestamptz,
  flag smallint not null default 0 constraint card_states_flag_range check (flag between 0 and 7),
  -- Bumped by every schedule change; record_review refuses an answer computed from an older version.
  version integer not null default 0,
  updated_at timestamptz not null default now(),
  primary key (user_id, card_id)
);
alter table public.card_states enable row level security;
create index card_states_queue_idx on public.card_states (user_id, deck_id, state, due, card_id) where not suspended;
create index card_states_card_id_idx on public.card_states (card_id);
create index card_states_due_idx on public.card_states (user_id, due) where state <> 'new';

-- Cards follow their note: one per ordinal the note produces; surviving cards
-- (and so their schedules) are kept, vanished ones deleted, new ones added.
create function private.sync_note_cards() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  wanted int[] := private.note_ordinals(new.kind, new.fields);
begin
  if tg_op = 'UPDATE' then
    delete from public.cards where note_id = new.id and ordinal <> all (wanted);
    if new.deck_id is distinct from old.deck_id then
      update public.cards set deck_id = new.deck_id where note_id = new.id;
    end if;
  end if;
  insert into public.cards (note_id, deck_id, ordinal, created_at)
  select new.id, new.deck_id, o, new.created_at
  from unnest(wanted) as o
  on conflict (note_id, ordinal) do nothing;
  return null;
end
$$;

create trigger notes_sync_cards after insert or update of kind, fields, deck_id on public.notes
  for each row execute function private.sync_note_cards();

-- New cards get a 'new' schedule row for every member of their deck; a card
-- that moves deck takes its schedules along and gains rows for the new deck's members.
create function private.add_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    update public.card_states set deck_id = new.deck_id where card_id = new.id;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due)
  select m.user_id, new.id, new.deck_id, new.created_at
  from public.deck_members m
  where m.deck_id = new.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

create trigger cards_add_states after insert or update of deck_id on public.cards
  for each row execute function private.add_card_states();

-- A new member gets a 'new' schedule row for each card of the deck (kept if
-- they had studied it before, e.g. when rejoining).
create function private.add_member_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.card_states (user_id, card_id, deck_id, due)
  select new.user_id, c.id, c.deck_id, c.created_at
  from public.cards c
  where c.deck_id = new.deck_id
  on conflict (user_id, card_id) do update set deck_id = excluded.deck_id;
  return null;
end
$$;

create trigger deck_members_add_states after insert on public.deck_members
  for each row execute function private.add_member_card_states();

create table public.review_logs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  card_id uuid not null references public.cards (id) on delete cascade,
  client_review_id uuid not null,
  rating smallint not null constraint review_logs_rating_range check (rating between 1 and 4),
  -- the schedule before the answer ...
  state public.card_state not null,
  due timestamptz not null,
  -- ... and after it
  stability double precision not null,
  difficulty double precision not null,
  elapsed_days integer not null,
  last_elapsed_days integer not null default 0,
  scheduled_days integer not null,
  learning_steps integer not null default 0,
  reviewed_at timestamptz not null
    constraint review_logs_reviewed_at_not_future check (reviewed_at <= created_at + interval '5 minutes'),
  duration_ms integer not null constraint review_logs_duration_range check (duration_ms between 0 and 3600000),
  -- the whole card_states row before the answer, restored by undo_review
  previous jsonb not null,
  created_at timestamptz not null default now(),
  constraint review_logs_client_review_id_key unique (user_id, client_review_id)
);
alter table public.review_logs enable row level security;
create index review_logs_user_reviewed_at_idx on public.review_logs (user_id, reviewed_at);
create index review_logs_card_id_idx on public.review_logs (card_id, reviewed_at);

create table public.import_jobs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  deck_id uuid references public.decks (id) on delete set null,
  source public.import_source not null,
  status public.import_status not null default 'queued',
  file_path text,
  processed integer not null default 0 constraint import_jobs_processed_range check (processed >= 0),
  total integer constraint import_jobs_total_range check (total >= 0),
  error text,
  summary jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.import_jobs enable row level security;
create index import_jobs_user_id_idx on public.import_jobs (user_id, created_at desc);

create trigger import_jobs_touch before update on public.import_jobs
  for each row execute function private.touch_updated_at();

revoke execute on all functions in schema private from public;
grant execute on all functions in schema private to anon, authenticated, service_role;

-- notes: readable with the deck, written by its owner and editors.
create policy "readers of a deck read its notes" on public.notes
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "editors add notes" on public.notes
  for insert to authenticated
  with check (private.can_edit_deck(deck_id) and created_by = (select auth.uid()));
create policy "editors edit notes" on public.notes
  for update to authenticated using (private.can_edit_deck(deck_id)) with check (private.can_edit_deck(deck_id));
create policy "editors delete notes" on public.notes
  for delete to authenticated using (private.can_edit_deck(deck_id));
revoke insert, update, delete on public.notes from anon;
revoke update on public.notes from authenticated;
grant update (kind, fields, tags) on public.notes to authenticated;

-- cards: derived from notes, so only readable.
create policy "readers of a deck read its cards" on public.cards
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
revoke insert, update, delete on public.cards from anon, authenticated;

-- card_states and review_logs: private to their user; written through RPCs.
create policy "users read their own card states" on public.card_states
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.card_states from anon;
revoke insert, update, delete on public.card_states from authenticated;

create policy "users read their own review logs" on public.review_logs
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.review_logs from anon;
revoke insert, update, delete on public.review_logs from authenticated;

-- import_jobs: read by their user; created and advanced by the import function.
create policy "users read their own import jobs" on public.import_jobs
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.import_jobs from anon;
revoke insert, update, delete on public.import_jobs from authenticated;
