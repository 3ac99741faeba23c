-- The user's own channel: the private Realtime topic `user:<id>`, where each of
-- a user's devices listens and any of them may send. A device that signs out
-- everywhere says so here, so the others check their session at once instead
-- of working on until their access token runs out. Broadcast only: nobody
-- needs presence on it, and nobody else may join it.
create policy "users receive broadcasts on their own channel" on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text
  );

create policy "users send broadcasts on their own channel" on realtime.messages
  for insert to authenticated
  with check (
    realtime.messages.extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text
  );
