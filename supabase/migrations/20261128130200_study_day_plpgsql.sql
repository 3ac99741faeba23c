-- The study day's bounds and date in PL/pgSQL, the same formulas: as SQL
-- functions with a SET clause they are never inlined, so each statement
-- calling them planned their bodies again (the study queue, the deck list's
-- figures and the stats call them at every request); in PL/pgSQL they are
-- evaluated as simple expressions.
create or replace function private.study_day(p_timezone text, p_day_start int, p_at timestamptz,
  out day_start timestamptz, out day_end timestamptz)
language plpgsql stable parallel safe
set search_path = ''
as $$
declare
  d timestamp := date_trunc('day', (p_at at time zone p_timezone) - make_interval(hours => p_day_start));
begin
  day_start := (d + make_interval(hours => p_day_start)) at time zone p_timezone;
  day_end := (d + interval '1 day' + make_interval(hours => p_day_start)) at time zone p_timezone;
end
$$;

create or replace function private.study_date(p_at timestamptz, p_timezone text, p_day_start integer) returns date
language plpgsql stable parallel safe
set search_path = ''
as $$
begin
  return ((p_at at time zone p_timezone) - make_interval(hours => p_day_start))::date;
end
$$;
