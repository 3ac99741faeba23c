-- A search over a deck of 10,000 notes is planned past jit_above_cost, and on
-- PostgreSQL compiling it took 45-70 ms of a 75 ms search: on a few thousand
-- rows compiling costs more than it saves, as for the study queue and
-- finish_import. The setting holds for the statements the functions run.
alter function public.search_notes(uuid, jsonb) set jit = off;
alter function public.browse_notes(uuid, jsonb, text, text, boolean, integer, integer, public.note_kind, uuid, text[])
  set jit = off;
