-- The study queue copied once less: public.study_queue read the session
-- through private.study_queue_for_caller, another set-returning PL/pgSQL
-- function, so each call gathered the whole session (about 940 cards with
-- their notes' fields at 100,000 cards, ~390 kB) into one more tuplestore and
-- copied it again. It now joins the session's cards to their notes itself,
-- after the same checks. Same rows, same order; study_queue_for_caller stays
-- for its other callers.
create or replace function public.study_queue(p_deck_id uuid default null, p_now timestamptz default null)
returns table (
  "position" integer,
  queue text,
  card_id uuid,
  note_id uuid,
  deck_id uuid,
  ordinal integer,
  note_kind public.note_kind,
  fields jsonb,
  tags text[],
  state public.card_state,
  due timestamptz,
  stability double precision,
  difficulty double precision,
  elapsed_days integer,
  scheduled_days integer,
  learning_steps integer,
  reps integer,
  lapses integer,
  last_review timestamptz,
  version integer
)
language plpgsql stable security definer
set search_path = ''
-- Planned without its arguments the query looks expensive enough to JIT
-- compile, which took far longer than the query (as for session_cards).
set jit = off
as $$
#variable_conflict use_column
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  perform private.check_time(p_now, 'now');
  return query
    select p."position", p.queue, p.card_id, p.note_id, p.deck_id, p.ordinal, n.kind, n.fields, n.tags,
           p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version
    from private.session_cards(auth.uid(), p_deck_id, coalesce(p_now, now())) p
    join public.notes n on n.id = p.note_id
    order by p."position";
end
$$;
