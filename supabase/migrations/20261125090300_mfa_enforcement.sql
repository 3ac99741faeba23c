-- Two-factor sign-in is enforced by the database, as Supabase documents it: a
-- user with a verified authenticator app (auth.mfa_factors) must present an
-- aal2 token — signed in with the password and then a code — to read or change
-- anything of theirs. Users without a factor are not affected.

-- True when the caller's token is aal2 or the caller has no verified factor
-- (anon and service_role have none). Security definer: the API roles cannot
-- read auth.mfa_factors. Policies call it as `(select private.aal_satisfied())`,
-- so it runs once per statement (an initplan), not once per row.
create function private.aal_satisfied() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = auth.uid() and f.status = 'verified'
    )
$$;

-- Every RPC that acts for the caller starts here; it now also refuses a
-- session that still owes its second factor.
create or replace function private.require_user() returns uuid
language plpgsql stable
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception using errcode = '42501', message = 'sign in required';
  end if;
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  return uid;
end
$$;

revoke execute on function private.aal_satisfied() from public;
grant execute on function private.aal_satisfied() to anon, authenticated, service_role;

-- A restrictive policy on every table in public: whatever the permissive
-- policies allow, a signed-in user also needs aal_satisfied(). A table added by
-- a later migration needs the same policy.
do $$
declare
  t record;
begin
  for t in
    select c.relname from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relrowsecurity
    order by c.relname
  loop
    execute format(
      'create policy "two-factor sessions only" on public.%I as restrictive for all to authenticated
         using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()))',
      t.relname);
  end loop;
end
$$;

-- The same for deck media and avatars in Storage, and for Realtime's private
-- channels (deck rooms, the user's own channel).
create policy "two-factor sessions only" on storage.objects as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));
create policy "two-factor sessions only" on realtime.messages as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- study_queue and deck_stats read the caller's rows as their owner (security
-- definer, keyed on auth.uid()), so no policy sees them. They move to private
-- unchanged and public keeps a wrapper of the same signature that checks first.
alter function public.study_queue(uuid, timestamptz) set schema private;
alter function private.study_queue(uuid, timestamptz) rename to study_queue_for_caller;
alter function public.deck_stats(timestamptz) set schema private;
alter function private.deck_stats(timestamptz) rename to deck_stats_for_caller;
revoke execute on function private.study_queue_for_caller(uuid, timestamptz), private.deck_stats_for_caller(timestamptz)
  from public, anon, authenticated;

create function public.study_queue(p_deck_id uuid default null, p_now timestamptz default null)
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
as $$
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  return query select * from private.study_queue_for_caller(p_deck_id, p_now);
end
$$;

create function public.deck_stats(p_now timestamptz default null)
returns table (
  deck_id uuid,
  name text,
  role public.deck_role,
  is_public boolean,
  note_count integer,
  card_count integer,
  new_count integer,
  learning_count integer,
  review_count integer,
  suspended_count integer,
  due_count integer,
  new_today integer
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  return query select * from private.deck_stats_for_caller(p_now);
end
$$;

revoke execute on function public.study_queue(uuid, timestamptz), public.deck_stats(timestamptz) from public, anon;
grant execute on function public.study_queue(uuid, timestamptz), public.deck_stats(timestamptz)
  to authenticated, service_role;
