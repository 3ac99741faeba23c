-- Imports stage each answer as a tuple instead of an object with its keys:
-- 100,000 answers are about 17 MB of JSON instead of 34, so staging sends and
-- parses half as much and finishing reads them faster. An object is still
-- taken (a job staged before this change, or another client). Imported
-- answers note their deck in the log, as an answer's own record does, so the
-- review rollup adds no row per answer to private.review_log_decks.
-- Redefining finish_import resets its settings, so they are set again.
create or replace function private.import_note_problem(p_note jsonb) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_note) <> 'object' then 'is not an object'
    when jsonb_typeof(coalesce(p_note -> 'guid', 'null')) not in ('string', 'null') then 'guid must be text'
    when char_length(p_note ->> 'guid') > 200 then 'guid has more than 200 characters'
    when coalesce(p_note ->> 'kind', '') not in ('basic', 'basic_reversed', 'cloze', 'type_in', 'image_occlusion', 'custom') then
      'kind must be basic, basic_reversed, cloze, type_in, image_occlusion or custom'
    when (p_note ->> 'kind' = 'custom') <> (jsonb_typeof(p_note -> 'note_type') is not distinct from 'string') then
      'a custom note, and only one, names its note_type'
    when jsonb_typeof(p_note -> 'fields') is distinct from 'object' then 'fields must be an object'
    when jsonb_typeof(coalesce(p_note -> 'tags', '[]')) not in ('array', 'null')
      or exists (
        select 1 from jsonb_array_elements(coalesce(nullif(p_note -> 'tags', 'null'), '[]')) as t
        where jsonb_typeof(t) <> 'string'
      ) then 'tags must be a list of text'
    when jsonb_typeof(coalesce(p_note -> 'cards', '[]')) not in ('array', 'null') then 'cards must be a list'
    when exists (
      select 1 from jsonb_array_elements(coalesce(nullif(p_note -> 'cards', 'null'), '[]')) as c
      where jsonb_typeof(c) <> 'object'
        or jsonb_typeof(c -> 'ordinal') is distinct from 'number'
        or jsonb_typeof(coalesce(c -> 'schedule', 'null')) not in ('object', 'null')
        or jsonb_typeof(coalesce(c -> 'suspended', 'null')) not in ('boolean', 'null')
        or jsonb_typeof(coalesce(c -> 'reviews', '[]')) not in ('array', 'null')
        or exists (
          select 1 from jsonb_array_elements(coalesce(nullif(c -> 'reviews', 'null'), '[]')) as r
          where jsonb_typeof(r) not in ('array', 'object')
        )
    ) then 'each card needs an ordinal, its schedule must be an object and its reviews lists or objects'
  end
$$;

create or replace function public.finish_import(p_job_id uuid, p_summary jsonb default '{}')
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
begin
  job := private.lock_own_import(p_job_id);
  perform private.refuse_expired_import(job);
  if job.status = 'done' then
    return job;
  elsif job.status <> 'running' then
    perform private.fail('22023', 'this import is no longer running', 'job');
  elsif p_summary is null or jsonb_typeof(p_summary) <> 'object' or pg_column_size(p_summary) > 65536 then
    perform private.fail('22023', 'summary must be a small JSON object', 'summary');
  elsif job.deck_id is null then
    perform private.fail('PT404', 'the deck of this import no longer exists', 'deck_id');
  elsif not private.can_edit_deck(job.deck_id) then
    perform private.fail('42501', 'you can no longer add notes to this deck');
  end if;
  on_existing := coalesce(job.options ->> 'existing', 'skip');
  deck_tree := coalesce(job.options ->> 'deck_tree', 'false') = 'true';
  if deck_tree and not private.is_deck_owner(job.deck_id) then
    perform private.fail('42501', 'only the owner of a deck can import subdecks into it', 'deck_tree');
  end if;
  -- Two imports into one deck commit one after the other, so both see each other's notes.
  perform 1 from public.decks where id = job.deck_id for no key update;

  -- The package's deck tree (deck_tree): each staged note's "deck", its Anki
  -- deck path as a list of names, becomes a deck under the import's deck,
  -- found by name under its parent first, so finishing an import of the
  -- same package again makes no deck twice. Without it every note lands in
  -- the import's deck. import_decks maps each path ('{}' for the import's
  -- deck itself) to its deck; existing notes are looked for in all of them.
  drop table if exists pg_temp.import_decks;
  create temp table import_decks (path text[] primary key, deck_id uuid not null, created boolean not null)
    on commit drop;
  insert into pg_temp.import_decks values ('{}', job.deck_id, job.created_deck);
  if deck_tree then
    if exists (
      select 1
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') as e(note)
      where b.job_id = p_job_id and jsonb_typeof(e.note) = 'object' and e.note ? 'deck'
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
        from private.import_batches b
        cross join lateral jsonb_array_elements(b.payload -> 'notes') as e(note)
        where b.job_id = p_job_id and e.note ? 'deck'
      ) p
      cross join lateral generate_series(1, cardinality(p.path)) as n
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
        insert into public.decks (owner_id, name, parent_id)
        select uid, deck_path[cardinality(deck_path)], parent.deck_id
        from pg_temp.import_decks parent
        where parent.path = deck_path[1:cardinality(deck_path) - 1]
        returning id into tree_deck;
      end if;
      insert into pg_temp.import_decks values (deck_path, tree_deck, tree_created);
    end loop;
  end if;
  -- The presets of the decks it made, found or created among the user's.
  perform private.import_presets(p_job_id, uid);
  -- The note types the custom notes use, found or created in the import's deck.
  perform private.import_note_types(p_job_id, job.deck_id);

  begin
    -- The staged notes in file order, each with what happens to it: the first
    -- of each guid counts, later ones are skipped.
    drop table if exists pg_temp.import_notes;
    create temp table import_notes on commit drop as
    select t.seq, t.guid, t.kind, t.fields, t.tags, t.cards, t.deck_id, t.note_type_id,
           coalesce(n.id, gen_random_uuid()) as note_id,
           now() + (t.seq - 1) * interval '1 microsecond' as created_at,
           case
             when t.guid is not null and row_number() over (partition by t.guid order by t.seq) > 1 then 'duplicate'
             when n.id is null then 'insert'
             else on_existing
           end as action
    from (
      select row_number() over (order by b.batch, e.ord) as seq,
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
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
      where b.job_id = p_job_id
    ) t
    -- The deck's notes from the same source, the first of each guid, in one
    -- join (a lookup per note scans the (deck_id, source_guid) index by its second column).
    left join (
      select distinct on (n.source_guid) n.source_guid, n.id
      from public.notes n
      where n.deck_id in (select d.deck_id from pg_temp.import_decks d) and n.source_guid is not null
      order by n.source_guid, n.created_at, n.id
    ) n on n.source_guid = t.guid;
    -- A temporary table has no statistics until analysed, and the joins below
    -- would each be planned for a few hundred rows.
    analyze pg_temp.import_notes (seq, note_id, action);

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
      user_id, card_id, deck_id, state, due, stability, difficulty, elapsed_days, scheduled_days,
      learning_steps, reps, lapses, last_review, suspended, buried_until, version
    )
    select uid, c.id, c.deck_id,
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
    join public.deck_members m on m.deck_id = c.deck_id and m.user_id = uid
    left join (
      select ic.card_id, ic.card,
        case when jsonb_typeof(ic.card -> 'schedule') = 'object' then ic.card -> 'schedule' end as schedule
      from pg_temp.import_cards ic
      where ic.added
    ) x on x.card_id = c.id
    where i.action = 'insert'
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
      select row_number() over (order by b.batch, e.ord) as seq, e.note ->> 'guid' as guid,
             private.import_note_problem(e.note) as problem
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
      where b.job_id = p_job_id
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

  delete from private.import_batches where job_id = p_job_id;
  update public.import_jobs set
    status = 'done',
    processed = coalesce(total, processed),
    error = null,
    summary = p_summary || jsonb_build_object(
      'notes_added', added,
      'notes_updated', updated,
      'notes_skipped', skipped,
      'cards', card_count,
      'reviews_added', reviews_added,
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

alter function public.finish_import(uuid, jsonb) set statement_timeout = '60s';
alter function public.finish_import(uuid, jsonb) set jit = off;
