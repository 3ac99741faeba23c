-- An import's commit steps into a new deck no longer hold the job's row
-- while they work, so the next batch is staged meanwhile instead of after:
-- the steps, the last call and abandon_import take turns on a lock of their
-- own (take_import_turn), and a step writes the row only as it ends. On a
-- server a step also aims at a second of work instead of a quarter, which
-- halves what each step's temp tables cost an import; the embedded database,
-- where a step holds the only connection, keeps a quarter
-- (engram.import_step_ms). purge_abandoned_imports leaves a job whose turn
-- a step holds, as it left one whose row a step held.

-- How long one commit step of an import into a new deck aims to work. On a
-- server a step holds only its own job and deck, so a second's step costs
-- no one else, and fewer steps spend less on each one's temp tables. The
-- embedded database has a single connection, which a step holds from every
-- other request, so the local stack sets engram.import_step_ms to a quarter
-- of a second there.
create function private.import_step_ms() returns integer
language sql stable
set search_path = ''
as $$
  select coalesce(nullif(current_setting('engram.import_step_ms', true), '')::integer, 1000)
$$;

-- The caller's job, its row left unlocked; PT404 for anyone else's.
create function private.read_own_import(p_job_id uuid) returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.import_jobs;
begin
  select * into job from public.import_jobs where id = p_job_id;
  if job.id is null or job.user_id is distinct from auth.uid() then
    perform private.fail('PT404', 'import not found', 'job_id');
  end if;
  return job;
end
$$;

-- The caller's job, locked until the end of the transaction; PT404 for anyone else's.
create or replace function private.lock_own_import(p_job_id uuid) returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
begin
  perform 1 from public.import_jobs where id = p_job_id for update;
  return private.read_own_import(p_job_id);
end
$$;

-- The steps of one import's finish, its last call and abandoning it take
-- turns (a lock on the job until the end of the transaction), before any
-- lock on the job's row: so a step can leave the row to the next batch
-- being staged, and still none of them overlaps another. Without p_wait it
-- takes the turn only if it is free, and says whether it did.
create function private.take_import_turn(p_job_id uuid, p_wait boolean default true) returns boolean
language plpgsql
set search_path = ''
as $$
declare
  turn bigint := hashtextextended('import_jobs:' || p_job_id::text, 0);
begin
  if p_wait then
    perform pg_advisory_xact_lock(turn);
    return true;
  end if;
  return pg_try_advisory_xact_lock(turn);
end
$$;

revoke execute on function private.read_own_import(uuid), private.take_import_turn(uuid, boolean) from anon;

-- Commits a staged import: finds or creates the note types its custom notes
-- use (import_note_types), adds the new notes (and so their cards and every
-- member's 'new' schedule), updates or skips notes already imported into the
-- deck (by source_guid, as the job's "existing" option says), applies the
-- caller's schedules, suspensions and review history to the cards of the
-- notes it added or updated, and marks the job done with counts the database
-- made. Any invalid note fails the call (22023 naming the note, or 23514
-- naming the constraint) and leaves the job running, so the client can
-- abandon it. Finishing again returns the job.
--
-- Into an existing deck (or a new deck tree) it commits everything in one
-- transaction. Into a new deck it may commit a step a call (p_one_batch:
-- the next notes in order, of the next batch once it is staged, about
-- import_step_ms of work, while later batches are still being staged;
-- otherwise nothing), so the server answers everyone else between them and
-- no import is bounded by one statement's timeout.
-- The deck has no member meanwhile, so nothing of it is listed, read or
-- announced; the call without p_one_batch commits what is left and makes
-- the caller its owner member. A failure in any step is abandoned as before,
-- and the deck goes with it.
create or replace function public.finish_import(p_job_id uuid, p_summary jsonb default '{}', p_one_batch boolean default false)
returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  job public.import_jobs;
  on_existing text;
  bad record;
  added integer;
  updated integer;
  skipped integer;
  card_count integer;
  reviews_added integer;
  deck_tree boolean;
  deck_path text[];
  tree_deck uuid;
  tree_created boolean;
  in_steps boolean;
  preset_plan jsonb;
  revealed uuid[];
  import_deck_ids uuid[];
  probe_each_deck boolean;
  last_batch integer;
  step_batch integer;
  step_from integer;
  step_count integer;
  step_notes integer;
  batch_done boolean;
  seq_base bigint;
  started timestamptz;
begin
  perform private.take_import_turn(p_job_id);
  if coalesce(p_one_batch, false) then
    -- A step leaves the job's row to the batch being staged meanwhile (it
    -- writes the row only as it ends); its turn keeps the other calls out.
    job := private.read_own_import(p_job_id);
  else
    job := private.lock_own_import(p_job_id);
  end if;
  -- A step's pace (ms_per_note, below) is its own work, not its wait for its
  -- turn: counting the wait made the next step smaller, and many small steps
  -- waited more.
  started := clock_timestamp();
  perform private.refuse_expired_import(job);
  if job.status = 'done' then
    return job;
  elsif job.status <> 'running' then
    perform private.fail('22023', 'this import is no longer running', 'job');
  elsif p_summary is null or jsonb_typeof(p_summary) <> 'object' or pg_column_size(p_summary) > 65536 then
    perform private.fail('22023', 'summary must be a small JSON object', 'summary');
  elsif job.deck_id is null then
    perform private.fail('PT404', 'the deck of this import no longer exists', 'deck_id');
  end if;
  on_existing := coalesce(job.options ->> 'existing', 'skip');
  deck_tree := coalesce(job.options ->> 'deck_tree', 'false') = 'true';
  in_steps := job.created_deck;
  -- The deck of a finish in steps has no member until its last step.
  if not (case when in_steps then exists (select 1 from public.decks d where d.id = job.deck_id and d.owner_id = uid)
              else private.can_edit_deck(job.deck_id) end) then
    perform private.fail('42501', 'you can no longer add notes to this deck');
  end if;
  if deck_tree and not in_steps and not private.is_deck_owner(job.deck_id) then
    perform private.fail('42501', 'only the owner of a deck can import subdecks into it', 'deck_tree');
  end if;
  -- Two imports into one deck commit one after the other, so both see each other's notes.
  perform 1 from public.decks where id = job.deck_id for no key update;

  -- What earlier steps committed is left out: the batches up to "batch",
  -- and the first "offset" notes of the next (a step may commit part of one).
  last_batch := coalesce((job.finishing ->> 'batch')::integer, -1);
  step_from := coalesce((job.finishing ->> 'offset')::integer, 0);
  if coalesce(p_one_batch, false) then
    -- The next batch in order, once it is staged; the call without
    -- p_one_batch commits what is left and reveals the deck.
    step_batch := last_batch + 1;
    select b.notes into step_notes from private.import_batches b where b.job_id = p_job_id and b.batch = step_batch;
    if not in_steps or step_notes is null then
      return job;
    end if;
    -- About import_step_ms of work at the pace of the step before (at
    -- least 50 notes), so a slower server takes smaller steps.
    step_count := least(step_notes - step_from, greatest(50, coalesce(
      floor(private.import_step_ms() / nullif((job.finishing ->> 'ms_per_note')::double precision, 0))::integer, step_notes)));
  end if;
  -- A note's number in the whole file, for the errors that name one.
  seq_base := coalesce((job.finishing ->> 'notes_read')::bigint, 0);

  -- The notes this call commits, in file order, read out of their batches
  -- once: the deck tree, its checks and the notes below all read them here
  -- (a step re-reading a whole 1 MB batch three times cost more than its notes).
  drop table if exists pg_temp.import_staged;
  create temp table import_staged on commit drop as
  select seq_base + row_number() over (order by b.batch, e.ord) as seq, e.note
  from private.import_batches b
  cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
  where b.job_id = p_job_id
    and (b.batch > last_batch + 1 or (b.batch = last_batch + 1 and e.ord > step_from))
    and (step_batch is null or (b.batch = step_batch and e.ord <= step_from + step_count));

  -- The package's deck tree (deck_tree): each staged note's "deck", its Anki
  -- deck path as a list of names, becomes a deck under the import's deck,
  -- found by name under its parent first, so finishing an import of the
  -- same package again makes no deck twice. Without it every note lands in
  -- the import's deck. import_decks maps each path ('{}' for the import's
  -- deck itself) to its deck; existing notes are looked for in all of them.
  -- A step reads only the notes it commits. Under a new deck every deck is
  -- the import's own: made without a member (as the new deck is), kept with
  -- the job for later steps (finishing.decks), and revealed with it.
  drop table if exists pg_temp.import_decks;
  create temp table import_decks (path text[] primary key, deck_id uuid not null, created boolean not null)
    on commit drop;
  insert into pg_temp.import_decks values ('{}', job.deck_id, job.created_deck);
  insert into pg_temp.import_decks
  select array(select jsonb_array_elements_text(t.path)), t.id, true
  from jsonb_to_recordset(coalesce(job.finishing -> 'decks', '[]')) as t(path jsonb, id uuid);
  if deck_tree then
    if exists (
      select 1
      from pg_temp.import_staged e
      where jsonb_typeof(e.note) = 'object' and e.note ? 'deck'
        and (jsonb_typeof(e.note -> 'deck') <> 'array' or jsonb_array_length(e.note -> 'deck') > 9
          or exists (
            select 1 from jsonb_array_elements(e.note -> 'deck') as c
            where jsonb_typeof(c) <> 'string' or char_length(private.trim_space(c #>> '{}')) not between 1 and 120
          ))
    ) then
      perform private.fail('22023', 'a note''s deck must be a list of 1 to 9 names of 1 to 120 characters', 'notes');
    end if;
    for deck_path in
      select distinct p.path[1:n]
      from (
        select array(select private.trim_space(c) from jsonb_array_elements_text(e.note -> 'deck') as c) as path
        from pg_temp.import_staged e
        where e.note ? 'deck'
      ) p
      cross join lateral generate_series(1, cardinality(p.path)) as n
      where not exists (select 1 from pg_temp.import_decks known where known.path = p.path[1:n])
      order by 1
    loop
      select d.id into tree_deck
      from public.decks d
      join pg_temp.import_decks parent on parent.deck_id = d.parent_id
      where parent.path = deck_path[1:cardinality(deck_path) - 1] and d.name = deck_path[cardinality(deck_path)]
      order by d.created_at, d.id
      limit 1;
      tree_created := tree_deck is null;
      if tree_created then
        perform set_config('engram.owner_joins_when_imported', in_steps::text, true);
        insert into public.decks (owner_id, name, parent_id)
        select uid, deck_path[cardinality(deck_path)], parent.deck_id
        from pg_temp.import_decks parent
        where parent.path = deck_path[1:cardinality(deck_path) - 1]
        returning id into tree_deck;
        perform set_config('engram.owner_joins_when_imported', 'false', true);
      end if;
      insert into pg_temp.import_decks values (deck_path, tree_deck, tree_created or in_steps);
    end loop;
  end if;
  if job.finishing is null then
    -- The presets of the decks it made, found or created among the user's.
    perform private.import_presets(p_job_id, uid);
    select jsonb_agg(jsonb_build_object('path', to_jsonb(s.path), 'preset_id', p.preset_id)) into preset_plan
    from pg_temp.import_deck_presets s
    join pg_temp.import_presets p on p.key = s.key;
    -- The note types the custom notes use, found or created in the import's deck.
    perform private.import_note_types(p_job_id, job.deck_id);
  else
    -- A later step: the note types and deck presets the first one found or made.
    drop table if exists pg_temp.import_note_types;
    create temp table import_note_types on commit drop as
    select t.key, t.id as note_type_id, t.name, t.created
    from jsonb_to_recordset(job.finishing -> 'note_types') as t(key text, id uuid, name text, created boolean);
    preset_plan := job.finishing -> 'deck_presets';
  end if;
  -- Each deck the import made takes the preset its staged entry names; decks
  -- already there keep theirs.
  if jsonb_array_length(coalesce(preset_plan, '[]')) > 0 then
    update public.decks d
    set preset_id = t.preset_id
    from jsonb_to_recordset(preset_plan) as t(path jsonb, preset_id uuid)
    join pg_temp.import_decks i on i.path = array(select jsonb_array_elements_text(t.path))
    where d.id = i.deck_id and i.created and d.owner_id = uid and d.preset_id is distinct from t.preset_id;
  end if;

  import_deck_ids := array(select d.deck_id from pg_temp.import_decks d);
  -- At most 64 probes a note, so no package's deck tree makes matching cost notes times decks.
  probe_each_deck := cardinality(import_deck_ids) <= 64;

  begin
    -- The staged notes in file order, each with what happens to it: the first
    -- of each guid counts, later ones are skipped.
    drop table if exists pg_temp.import_notes;
    create temp table import_notes on commit drop as
    select t.seq, t.guid, t.kind, t.fields, t.tags, t.cards, t.deck_id, t.note_type_id,
           coalesce(probed.id, joined.id, gen_random_uuid()) as note_id,
           now() + (t.seq - 1) * interval '1 microsecond' as created_at,
           case
             when t.guid is not null and row_number() over (partition by t.guid order by t.seq) > 1 then 'duplicate'
             when coalesce(probed.id, joined.id) is null then 'insert'
             -- In a new deck, only an earlier step can have added it.
             when in_steps then 'duplicate'
             else on_existing
           end as action
    from (
      select e.seq,
             nullif(e.note ->> 'guid', '') as guid,
             (e.note ->> 'kind')::public.note_kind as kind,
             e.note -> 'fields' as fields,
             coalesce(array(select jsonb_array_elements_text(nullif(e.note -> 'tags', 'null'))), '{}') as tags,
             coalesce(nullif(e.note -> 'cards', 'null'), '[]') as cards,
             (select nt.note_type_id from pg_temp.import_note_types nt where nt.key = e.note ->> 'note_type')
               as note_type_id,
             (select d.deck_id from pg_temp.import_decks d
              where d.path = case when deck_tree and e.note ? 'deck' then array(
                select private.trim_space(c) from jsonb_array_elements_text(e.note -> 'deck') as c) else '{}' end
             ) as deck_id
      from pg_temp.import_staged e
    ) t
    -- The note of the same guid already in the import's decks (the first
    -- made, when a tree holds several). With a few decks, one probe of the
    -- unique (deck_id, source_guid) index per deck: a step reads only its
    -- own notes' matches, not every note an earlier step added. An equality
    -- on both columns is what makes the planner take that index whatever its
    -- statistics say ("deck_id = any" let old ones pick the deck's
    -- creation-order index and walk the deck); kept apart by "offset 0",
    -- the order cannot lead it there either.
    left join lateral (
      select m.id
      from (
        select n.id, n.created_at
        from unnest(import_deck_ids) as d(deck_id)
        join public.notes n on n.deck_id = d.deck_id and n.source_guid = t.guid
        where probe_each_deck
        offset 0
      ) m
      order by m.created_at, m.id
      limit 1
    ) probed on true
    -- With many decks, probes would cost notes times decks: the decks' notes
    -- are read once instead, the first of each guid, in one join.
    left join (
      select distinct on (n.source_guid) n.source_guid, n.id
      from public.notes n
      where not probe_each_deck and n.deck_id = any (import_deck_ids) and n.source_guid is not null
      order by n.source_guid, n.created_at, n.id
    ) joined on joined.source_guid = t.guid;
    -- A temporary table has no statistics until analysed, and the joins below
    -- would each be planned for a few hundred rows.
    analyze pg_temp.import_notes (seq, note_id, action);
    -- A custom note naming a note type the import does not hold is refused before any note is added.
    select i.seq, i.guid into bad
    from pg_temp.import_notes i
    where i.kind = 'custom' and i.note_type_id is null
    order by i.seq limit 1;
    if bad.seq is not null then
      perform private.fail('22023', format('note %s%s: its note type is not in the import', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end), 'notes');
    end if;

    -- created_at a microsecond apart keeps the file's order in the deck and
    -- in the order new cards are studied (new cards are due at creation).
    -- Their cards are added below in one statement instead of one per note
    -- by the sync trigger (a third of the time on 10,000 notes).
    begin
      perform set_config('engram.adding_cards_in_bulk', 'on', true);
      insert into public.notes (id, deck_id, kind, fields, tags, created_by, source_guid, created_at, note_type_id)
      select i.note_id, i.deck_id, i.kind, i.fields, i.tags, uid, i.guid, i.created_at, i.note_type_id
      from pg_temp.import_notes i
      where i.action = 'insert'
      order by i.seq;
      get diagnostics added = row_count;
      perform set_config('engram.adding_cards_in_bulk', 'off', true);

      -- The card sync trigger keeps the cards (and schedules) of surviving ordinals.
      update public.notes n set kind = i.kind, fields = i.fields, tags = i.tags, note_type_id = i.note_type_id
      from pg_temp.import_notes i
      where n.id = i.note_id and i.action = 'update'
        and (n.kind, n.fields, n.tags, n.note_type_id) is distinct from (i.kind, i.fields, i.tags, i.note_type_id);
    exception when check_violation then
      -- Which note broke which rule, looked for only once one did; a rule
      -- import_content_problem does not mirror keeps its constraint's error.
      select i.seq, i.guid, private.import_content_problem(i.kind, i.fields, i.tags) as problem into bad
      from pg_temp.import_notes i
      where i.action in ('insert', 'update') and private.import_content_problem(i.kind, i.fields, i.tags) is not null
      order by i.seq limit 1;
      if bad.seq is null then
        raise;
      end if;
      perform private.fail('22023', format('note %s%s: %s', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end, bad.problem), 'notes');
    end;

    -- Every other member of the deck gets a 'new' schedule for these
    -- (cards_add_states); the caller's are written below with the file's schedule.
    perform set_config('engram.writing_own_schedules', 'on', true);
    insert into public.cards (note_id, deck_id, ordinal, created_at)
    select i.note_id, i.deck_id, o, i.created_at
    from pg_temp.import_notes i
    cross join lateral unnest(private.import_note_ordinals(i.kind, i.fields, i.tags, i.note_type_id)) as o
    where i.action = 'insert'
    order by i.seq, o;
    perform set_config('engram.writing_own_schedules', 'off', true);

    select count(*) filter (where action = 'update'), count(*) filter (where action in ('skip', 'duplicate'))
    into updated, skipped
    from pg_temp.import_notes;

    -- The staged cards of added and updated notes, matched to the cards their
    -- notes now have (a card of an ordinal the note does not make is ignored).
    drop table if exists pg_temp.import_cards;
    create temp table import_cards on commit drop as
    select c.id as card_id, c.deck_id, e.card, i.action = 'insert' as added
    from pg_temp.import_notes i
    cross join lateral jsonb_array_elements(i.cards) as e(card)
    join public.cards c on c.note_id = i.note_id and c.ordinal = (e.card ->> 'ordinal')::integer
    where i.action in ('insert', 'update');
    analyze pg_temp.import_cards (card_id, added);

    -- The caller's schedules of the cards just added, in one insert: the
    -- file's schedule, suspension and burial, else 'new' and due at creation,
    -- as the member trigger writes it (a schedule written then changed has version 1).
    insert into public.card_states (
      user_id, card_id, deck_id, note_id, ordinal, state, due, stability, difficulty, elapsed_days, scheduled_days,
      learning_steps, reps, lapses, last_review, suspended, buried_until, version
    )
    select uid, c.id, c.deck_id, c.note_id, c.ordinal,
      coalesce((x.schedule ->> 'state')::public.card_state, 'new'),
      coalesce((x.schedule ->> 'due')::timestamptz, c.created_at),
      coalesce((x.schedule ->> 'stability')::double precision, 0),
      coalesce((x.schedule ->> 'difficulty')::double precision, 0),
      coalesce((x.schedule ->> 'elapsed_days')::integer, 0),
      coalesce((x.schedule ->> 'scheduled_days')::integer, 0),
      coalesce((x.schedule ->> 'learning_steps')::integer, 0),
      coalesce((x.schedule ->> 'reps')::integer, 0),
      coalesce((x.schedule ->> 'lapses')::integer, 0),
      (x.schedule ->> 'last_review')::timestamptz,
      coalesce((x.card ->> 'suspended')::boolean, false),
      (x.card ->> 'buried_until')::timestamptz,
      case when x.schedule is not null or coalesce((x.card ->> 'suspended')::boolean, false)
        or (x.card ->> 'buried_until') is not null then 1 else 0 end
    from pg_temp.import_notes i
    join public.cards c on c.note_id = i.note_id
    left join (
      select ic.card_id, ic.card,
        case when jsonb_typeof(ic.card -> 'schedule') = 'object' then ic.card -> 'schedule' end as schedule
      from pg_temp.import_cards ic
      where ic.added
    ) x on x.card_id = c.id
    where i.action = 'insert'
      and (in_steps or exists (select 1 from public.deck_members m where m.deck_id = c.deck_id and m.user_id = uid))
    on conflict (user_id, card_id) do nothing;

    -- The caller's schedules of the notes updated; other members keep theirs. A schedule the
    -- caller has studied since it was last imported is not overwritten, and
    -- a card the file leaves as it is keeps its version. The cards are taken
    -- from import_cards first and each schedule found by its key: planned as
    -- one join, the schedules just inserted (not yet analysed) made PostgreSQL
    -- scan them once per card, a minute for 10,000 cards none of which it changed.
    with x as materialized (
      select ic.card_id, ic.card, case
        when jsonb_typeof(ic.card -> 'schedule') = 'object'
          and (mine.state = 'new' or mine.last_review is null
            or mine.last_review <= coalesce((ic.card -> 'schedule' ->> 'last_review')::timestamptz, '-infinity'))
        then ic.card -> 'schedule'
      end as schedule
      from pg_temp.import_cards ic
      join public.card_states mine on mine.user_id = uid and mine.card_id = ic.card_id
      where not ic.added
    )
    update public.card_states s set
      state = coalesce((x.schedule ->> 'state')::public.card_state, s.state),
      due = coalesce((x.schedule ->> 'due')::timestamptz, s.due),
      stability = coalesce((x.schedule ->> 'stability')::double precision, s.stability),
      difficulty = coalesce((x.schedule ->> 'difficulty')::double precision, s.difficulty),
      elapsed_days = coalesce((x.schedule ->> 'elapsed_days')::integer, s.elapsed_days),
      scheduled_days = coalesce((x.schedule ->> 'scheduled_days')::integer, s.scheduled_days),
      learning_steps = coalesce((x.schedule ->> 'learning_steps')::integer, s.learning_steps),
      reps = coalesce((x.schedule ->> 'reps')::integer, s.reps),
      lapses = coalesce((x.schedule ->> 'lapses')::integer, s.lapses),
      last_review = case when x.schedule is null then s.last_review
        else (x.schedule ->> 'last_review')::timestamptz end,
      suspended = coalesce((x.card ->> 'suspended')::boolean, s.suspended),
      buried_until = case when x.card ? 'buried_until' then (x.card ->> 'buried_until')::timestamptz
        else s.buried_until end,
      version = s.version + 1,
      updated_at = now()
    from x
    where s.user_id = uid and s.card_id = x.card_id
      and (
        x.schedule is not null
        or coalesce((x.card ->> 'suspended')::boolean, s.suspended) <> s.suspended
        or (x.card ? 'buried_until' and (x.card ->> 'buried_until')::timestamptz is distinct from s.buried_until)
      );

    -- Logs made by an import have no schedule to go back to (undo_review
    -- refuses them); the deck they count for is noted in them, as an answer's
    -- own is, so the review rollup needs no row per log. A staged answer is a
    -- tuple (client_review_id, rating, state, due, stability, difficulty,
    -- elapsed_days, last_elapsed_days, scheduled_days, learning_steps,
    -- reviewed_at, duration_ms): half the bytes of an object with those keys,
    -- which is still taken and read as one.
    insert into public.review_logs (
      user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
      elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at, duration_ms, previous
    )
    select uid, c.card_id, (r ->> 0)::uuid, (r ->> 1)::smallint,
           (r ->> 2)::public.card_state, (r ->> 3)::timestamptz,
           (r ->> 4)::double precision, (r ->> 5)::double precision,
           (r ->> 6)::integer, coalesce((r ->> 7)::integer, 0),
           (r ->> 8)::integer, coalesce((r ->> 9)::integer, 0),
           (r ->> 10)::timestamptz, coalesce((r ->> 11)::integer, 0),
           jsonb_build_object('imported', true, 'deck_id', c.deck_id)
    from pg_temp.import_cards c
    cross join lateral jsonb_array_elements(coalesce(nullif(c.card -> 'reviews', 'null'), '[]')) as e(staged)
    cross join lateral (
      select case when jsonb_typeof(e.staged) = 'array' then e.staged else jsonb_build_array(
        e.staged -> 'client_review_id', e.staged -> 'rating', e.staged -> 'state', e.staged -> 'due',
        e.staged -> 'stability', e.staged -> 'difficulty', e.staged -> 'elapsed_days', e.staged -> 'last_elapsed_days',
        e.staged -> 'scheduled_days', e.staged -> 'learning_steps', e.staged -> 'reviewed_at', e.staged -> 'duration_ms'
      ) end
    ) as t(r)
    on conflict (user_id, client_review_id) do nothing;
    get diagnostics reviews_added = row_count;

    select count(*) into card_count
    from public.cards c join pg_temp.import_notes i on i.note_id = c.note_id
    where i.action in ('insert', 'update');
  exception when others then
    -- Only once something failed: a malformed note is named, a value the
    -- casts above refused is a bad argument, anything else keeps its error.
    select s.seq, s.guid, s.problem into bad
    from (
      select seq_base + row_number() over (order by b.batch, e.ord) as seq, e.note ->> 'guid' as guid,
             private.import_note_problem(e.note) as problem
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
      where b.job_id = p_job_id
        and (b.batch > last_batch + 1 or (b.batch = last_batch + 1 and e.ord > step_from))
        and (step_batch is null or (b.batch = step_batch and e.ord <= step_from + step_count))
    ) s
    where s.problem is not null
    order by s.seq limit 1;
    if bad.seq is not null then
      perform private.fail('22023', format('note %s%s: %s', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end, bad.problem), 'notes');
    elsif sqlstate in ('22P02', '22007', '22008', '22003', '23502') then
      perform private.fail('22023', 'a staged value is missing or of the wrong type: ' || sqlerrm, 'notes');
    end if;
    raise;
  end;

  if step_batch is not null then
    -- The job says how far the finish has come, and a batch wholly in goes.
    batch_done := step_from + step_count >= step_notes;
    with committed as (
      delete from private.import_batches where batch_done and job_id = p_job_id and batch = step_batch returning bytes
    )
    update public.import_jobs set finishing = jsonb_build_object(
      'batch', case when batch_done then step_batch else last_batch end,
      'offset', case when batch_done then 0 else step_from + step_count end,
      'notes_read', seq_base + (select count(*) from pg_temp.import_notes),
      'bytes_read', coalesce((job.finishing ->> 'bytes_read')::bigint, 0) + coalesce((select sum(bytes) from committed), 0),
      'ms_per_note', round((extract(epoch from clock_timestamp() - started) * 1000 / greatest(step_count, 1))::numeric, 3),
      'notes_added', coalesce((job.finishing ->> 'notes_added')::integer, 0) + added,
      'notes_skipped', coalesce((job.finishing ->> 'notes_skipped')::integer, 0) + skipped,
      'cards', coalesce((job.finishing ->> 'cards')::integer, 0) + card_count,
      'reviews_added', coalesce((job.finishing ->> 'reviews_added')::integer, 0) + reviews_added,
      'note_types', coalesce((
        select jsonb_agg(jsonb_build_object('key', t.key, 'id', t.note_type_id, 'name', t.name, 'created', t.created))
        from pg_temp.import_note_types t
      ), '[]'),
      'deck_presets', coalesce(preset_plan, '[]'),
      'decks', coalesce((
        select jsonb_agg(jsonb_build_object('path', to_jsonb(d.path), 'id', d.deck_id))
        from pg_temp.import_decks d where d.path <> '{}'
      ), '[]')
    )
    where id = p_job_id
    returning * into job;
    return job;
  end if;

  delete from private.import_batches where job_id = p_job_id;
  if in_steps then
    -- The caller becomes the owner member of the deck and its subdecks. Their
    -- schedules of the cards are written: the member trigger would rewrite
    -- each (add_member_card_states); only a card added some other way
    -- meanwhile gets its 'new' one here. The unique key skips the others:
    -- a "not exists" here was planned from statistics taken before the
    -- import, as a loop over every schedule of the user per card (13 s for
    -- 10,000 cards; quadratic in the deck's size).
    with recursive tree (id) as (
      select job.deck_id
      union all
      select d.id from public.decks d join tree t on d.parent_id = t.id
    )
    select array_agg(tree.id) into revealed from tree;
    perform set_config('engram.writing_own_schedules', 'on', true);
    insert into public.deck_members (deck_id, user_id, role)
    select r.id, uid, 'owner' from unnest(revealed) as r(id)
    on conflict do nothing;
    perform set_config('engram.writing_own_schedules', 'off', true);
    insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
    select uid, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
    from public.cards c
    where c.deck_id = any (revealed)
    on conflict (user_id, card_id) do nothing;
  end if;
  update public.import_jobs set
    status = 'done',
    processed = coalesce(total, processed),
    error = null,
    summary = p_summary || jsonb_build_object(
      'notes_added', coalesce((job.finishing ->> 'notes_added')::integer, 0) + added,
      'notes_updated', updated,
      'notes_skipped', coalesce((job.finishing ->> 'notes_skipped')::integer, 0) + skipped,
      'cards', coalesce((job.finishing ->> 'cards')::integer, 0) + card_count,
      'reviews_added', coalesce((job.finishing ->> 'reviews_added')::integer, 0) + reviews_added,
      'note_types', coalesce((
        select jsonb_agg(jsonb_build_object('id', t.note_type_id, 'name', t.name, 'created', t.created) order by t.name)
        from pg_temp.import_note_types t
      ), '[]')
    )
  where id = p_job_id
  returning * into job;
  return job;
end
$$;

-- Committing a large deck (10,000 notes with 100,000 reviews) can take longer
-- than authenticated's 8 s on a small instance. The SET below alone would not
-- lift it: a statement's timer starts with the timeout in force when the
-- statement begins, so a function's own setting comes too late. PostgREST
-- (12.2 on, as on the platform) hoists it into the request's transaction
-- before the call, so this request alone runs under it (60 s, the platform's
-- API maximum); other requests keep the role's. tests/import-at-scale.test.ts
-- imports such a deck through the API under these timeouts.
alter function public.finish_import(uuid, jsonb, boolean) set statement_timeout = '60s';
-- Compiling its statements (JIT) costs more than it saves on a few thousand rows.
alter function public.finish_import(uuid, jsonb, boolean) set jit = off;

-- Gives up an import (failed or cancelled on the device): drops its staged
-- batches and the deck it created, which holds nothing anyone has seen (at
-- most what steps of its finish committed, before it had a member).
-- Abandoning again returns the job.
create or replace function public.abandon_import(p_job_id uuid, p_error text default 'cancelled')
returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  job public.import_jobs;
begin
  perform private.take_import_turn(p_job_id);
  job := private.lock_own_import(p_job_id);
  if job.status = 'failed' then
    return job;
  elsif job.status = 'done' then
    perform private.fail('22023', 'this import has already finished', 'job');
  end if;
  delete from private.import_batches where job_id = p_job_id;
  if job.created_deck then
    delete from public.decks where id = job.deck_id and owner_id = uid;
  end if;
  update public.import_jobs
  set status = 'failed', error = left(coalesce(p_error, 'cancelled'), 500)
  where id = p_job_id
  returning * into job;
  return job;
end
$$;

-- Clears imports that were abandoned: running jobs past their age
-- (import_limits) are marked failed as expired, and their staged batches
-- deleted with the deck they created while it holds no notes or, left by a
-- finish in steps, has no member yet. Finished imports, and every note an
-- import landed, are never touched. start_import
-- runs it for everyone; the service role may call it too (from pg_cron on a
-- hosted project: `select public.purge_abandoned_imports()`). Returns how
-- many jobs it cleared, at most p_limit.
create or replace function public.purge_abandoned_imports(p_limit integer default 1000) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  expired uuid[];
begin
  if p_limit is null or p_limit not between 1 and 10000 then
    perform private.fail('22023', 'purge 1 to 10,000 imports at a time', 'limit');
  end if;
  -- A job being staged or finished right now is locked, or its turn taken by
  -- a step: it is left for the next purge.
  select array_agg(j.id) into expired
  from (
    select id from public.import_jobs
    where status = 'running' and created_at <= now() - (private.import_limits()).max_age
      and private.take_import_turn(id, p_wait => false)
    order by created_at
    limit p_limit
    for update skip locked
  ) j;
  if expired is null then
    return 0;
  end if;
  delete from private.import_batches where job_id = any(expired);
  delete from public.decks d
  using public.import_jobs j
  where j.id = any(expired) and j.created_deck and d.id = j.deck_id and d.owner_id = j.user_id
    and (not exists (select 1 from public.notes n where n.deck_id = d.id)
      or not exists (select 1 from public.deck_members m where m.deck_id = d.id));
  update public.import_jobs set status = 'failed', error = 'expired' where id = any(expired);
  return cardinality(expired);
end
$$;
