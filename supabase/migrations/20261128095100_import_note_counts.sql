-- A batch could hold any number of notes within its 4 MiB: a million empty
-- ones held finish_import for minutes. Now a batch holds at most 1,000 notes
-- (what the device sends) and a job 100,000, counted as batches are staged.

alter table private.import_batches
  add column notes integer not null default 0 constraint import_batches_notes_range check (notes >= 0);
update private.import_batches set notes = jsonb_array_length(payload -> 'notes');

drop function private.import_limits();

-- What one user's imports may hold while they run. The device sends batches
-- of at most 1,000 notes and 2 MB (@engram/sdk's transfer/staged.ts; a
-- 1,558-note Anki collection stages 1.2 MB in two), so a batch may hold
-- 1,000 notes in 4 MiB and a job 1,000 batches, 100,000 notes and 512 MiB in
-- all: room for 100,000 notes with a million answers (about 400 MB), and no
-- more notes than finishing is built for, however small each is. A job runs
-- for at most a day (staging takes minutes); an older one was abandoned, and
-- purge_abandoned_imports removes it. At most 3 run at once per user.
create function private.import_limits(
  out batch_bytes integer, out batch_notes integer, out batches integer, out job_notes integer,
  out job_bytes bigint, out running_jobs integer, out max_age interval
)
language sql immutable
set search_path = ''
as $$
  select 4 * 1024 * 1024, 1000, 1000, 100000, 512::bigint * 1024 * 1024, 3, interval '24 hours'
$$;

-- Stores one batch of notes and reports progress (p_processed notes of the
-- file read so far), which reaches the user's other devices through realtime
-- on import_jobs. Sending a batch again changes nothing. The notes are
-- checked by finish_import, so staging stays cheap; their size is bounded
-- here (import_limits).
create or replace function public.stage_import(p_job_id uuid, p_batch integer, p_payload jsonb, p_processed integer)
returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.import_jobs;
  limits record;
  size bigint;
  note_count integer;
begin
  perform private.require_user();
  select * into limits from private.import_limits();
  job := private.lock_own_import(p_job_id);
  perform private.refuse_expired_import(job);
  if job.status <> 'running' then
    perform private.fail('22023', 'this import is no longer running', 'job');
  elsif p_batch is null or p_batch < 0 or p_batch >= limits.batches then
    perform private.fail('22023', format('batches are numbered 0 to %s', limits.batches - 1), 'batch');
  elsif p_processed is null or p_processed < 0 then
    perform private.fail('22023', 'processed must be a number of notes, 0 or more', 'processed');
  elsif p_payload is null or jsonb_typeof(p_payload) <> 'object' or jsonb_typeof(p_payload -> 'notes') is distinct from 'array' then
    perform private.fail('22023', 'a batch is an object with a list of notes', 'payload');
  end if;
  size := octet_length(p_payload::text);
  note_count := jsonb_array_length(p_payload -> 'notes');
  if size > limits.batch_bytes then
    perform private.fail('22023', 'a batch holds at most 4 MiB', 'payload');
  elsif note_count > limits.batch_notes then
    perform private.fail('22023', 'a batch holds at most 1,000 notes', 'payload');
  elsif not exists (select 1 from private.import_batches where job_id = p_job_id and batch = p_batch) then
    if size + (select coalesce(sum(b.bytes), 0) from private.import_batches b where b.job_id = p_job_id)
      > limits.job_bytes then
      perform private.fail('PT413', 'an import stages at most 512 MiB', 'import_size');
    elsif note_count + (select coalesce(sum(b.notes), 0) from private.import_batches b where b.job_id = p_job_id)
      > limits.job_notes then
      perform private.fail('PT413', 'an import stages at most 100,000 notes', 'import_size');
    end if;
  end if;

  insert into private.import_batches (job_id, batch, payload, bytes, notes)
  values (p_job_id, p_batch, p_payload, size, note_count)
  on conflict (job_id, batch) do nothing;
  update public.import_jobs
  set processed = greatest(processed, least(p_processed, coalesce(total, p_processed)))
  where id = p_job_id
  returning * into job;
  return job;
end
$$;

revoke execute on function private.import_limits() from anon;
