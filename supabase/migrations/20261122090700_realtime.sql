-- Tables whose changes the app listens to; Realtime applies each subscriber's
-- RLS before delivering a change.
alter publication supabase_realtime add table
  public.decks, public.deck_members, public.notes, public.cards,
  public.card_states, public.review_logs, public.import_jobs;
