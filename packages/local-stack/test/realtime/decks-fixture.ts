import { randomUUID } from "node:crypto";
import type { RunningStack } from "../../src/server.js";

/**
 * A small copy of Engram's sharing model for the realtime security tests: decks,
 * their members (readable by co-members through a security definer helper, as the
 * app's policies do), per-user card states, a private `deck:<id>` room for members,
 * and a markers table everyone reads (a change every subscriber receives, so a test
 * knows all earlier deliveries have arrived).
 */
export async function createDecksFixture(stack: RunningStack): Promise<void> {
  await stack.stack.db.exec(`
    create table public.rt_decks (id uuid primary key, owner_id uuid not null, name text not null default 'deck');
    create table public.rt_deck_members (
      deck_id uuid not null references public.rt_decks (id) on delete cascade,
      user_id uuid not null,
      primary key (deck_id, user_id)
    );
    create table public.rt_card_states (
      card_id bigint not null,
      user_id uuid not null,
      deck_id uuid not null references public.rt_decks (id) on delete cascade,
      due int not null default 0,
      primary key (card_id, user_id)
    );
    create table public.rt_markers (id bigint generated always as identity primary key, label text not null);

    create function public.rt_member_deck_ids() returns setof uuid
    language sql stable security definer set search_path = '' as $$
      select deck_id from public.rt_deck_members where user_id = auth.uid()
    $$;

    alter table public.rt_decks enable row level security;
    alter table public.rt_deck_members enable row level security;
    alter table public.rt_card_states enable row level security;
    create policy "members read their decks" on public.rt_decks
      for select to authenticated using (id in (select public.rt_member_deck_ids()));
    create policy "owners delete their decks" on public.rt_decks
      for delete to authenticated using (owner_id = auth.uid());
    create policy "members read co-members" on public.rt_deck_members
      for select to authenticated using (deck_id in (select public.rt_member_deck_ids()));
    create policy "owners remove members" on public.rt_deck_members
      for delete to authenticated
      using (exists (select 1 from public.rt_decks d where d.id = deck_id and d.owner_id = auth.uid()));
    create policy "users read their own card states" on public.rt_card_states
      for select to authenticated using (user_id = auth.uid());

    grant select on public.rt_decks, public.rt_deck_members to anon, authenticated;
    grant delete on public.rt_decks, public.rt_deck_members to authenticated;
    grant select on public.rt_card_states to authenticated;
    revoke all on public.rt_card_states from anon;
    grant select on public.rt_markers to anon, authenticated;
    grant all on public.rt_decks, public.rt_deck_members, public.rt_card_states, public.rt_markers to service_role;

    create policy "members receive deck rooms" on realtime.messages for select to authenticated
      using ((case when realtime.topic() like 'deck:%' then substr(realtime.topic(), 6) end)
             in (select id::text from public.rt_member_deck_ids() id));
    create policy "members send in deck rooms" on realtime.messages for insert to authenticated
      with check ((case when realtime.topic() like 'deck:%' then substr(realtime.topic(), 6) end)
                  in (select id::text from public.rt_member_deck_ids() id));

    alter publication supabase_realtime add table
      public.rt_decks, public.rt_deck_members, public.rt_card_states, public.rt_markers;
  `);
}

/** A deck owned by `owner` with `members` (the owner included), as the database owner writes it. */
export async function createDeck(stack: RunningStack, owner: string, members: string[]): Promise<string> {
  const id = randomUUID();
  await stack.stack.db.query("insert into public.rt_decks (id, owner_id) values ($1, $2)", [id, owner]);
  await stack.stack.db.query("insert into public.rt_deck_members (deck_id, user_id) select $1, unnest($2::uuid[])", [
    id,
    [owner, ...members],
  ]);
  return id;
}

export async function addMarker(stack: RunningStack, label: string): Promise<void> {
  await stack.stack.db.query("insert into public.rt_markers (label) values ($1)", [label]);
}
