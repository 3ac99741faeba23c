-- Suggestions announced as every table is (80_realtime.sql, which this
-- follows): on the deck's topic, where its maintainers refetch their queue
-- (RLS shows the deck's other members nothing), and on the author's own
-- topic, where they see the outcome.
create trigger note_suggestions_announce_inserts after insert on public.note_suggestions
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'topic-exists');
create trigger note_suggestions_announce_updates after update on public.note_suggestions
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'topic-exists');
create trigger note_suggestions_announce_deletes after delete on public.note_suggestions
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'topic-exists');
create trigger note_suggestions_announce_inserts_to_author after insert on public.note_suggestions
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'author_id', 'id', 'topic-exists');
create trigger note_suggestions_announce_updates_to_author after update on public.note_suggestions
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'author_id', 'id', 'topic-exists');
