-- private.send_change in PL/pgSQL, sending the same message: as a SQL function
-- with a SET clause it was planned again at every announcement (two per
-- answer: its log and its schedule).
create or replace function private.send_change(p_topic text, p_table text, p_op text, p_ids uuid[]) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object(
      'table', p_table,
      'type', lower(p_op),
      'ids', to_jsonb(p_ids)),
    'change', p_topic, true);
end
$$;
