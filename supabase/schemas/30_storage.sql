-- Buckets and who may touch which object. Paths: media/<deck_id>/<file>,
-- avatars/<user_id>/<file>, imports/<user_id>/<file>, exports/<user_id>/<file>.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('media', 'media', false, 10485760, array[
    'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml',
    'audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/x-m4a', 'audio/wav', 'audio/x-wav'
  ]),
  ('avatars', 'avatars', false, 2097152, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  ('imports', 'imports', false, 209715200, null),
  ('exports', 'exports', false, 209715200, null)
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- The first folder of an object path as a uuid, or null when it is not one,
-- or when the path has a '..' segment: resolved as a file path (by a browser
-- building a URL, or a file-system storage backend) '<mine>/../<yours>/f'
-- lands in someone else's folder.
create function private.path_owner_id(p_name text) returns uuid
language plpgsql immutable
set search_path = ''
as $$
declare
  folder text := (storage.foldername(p_name))[1];
begin
  if folder ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and not ('..' = any (string_to_array(p_name, '/'))) then
    return folder::uuid;
  end if;
  return null;
end
$$;

-- Users who share a deck with the caller may see each other's avatars.
create function private.shares_deck_with(p_user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select p_user_id = auth.uid() or exists (
    select 1 from public.deck_members mine
    join public.deck_members theirs on theirs.deck_id = mine.deck_id
    where mine.user_id = auth.uid() and theirs.user_id = p_user_id
  )
$$;

create policy "readers of a deck read its media" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'media' and private.can_read_deck(private.path_owner_id(name)));
create policy "editors upload media" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'media' and private.can_edit_deck(private.path_owner_id(name)));
create policy "editors replace media" on storage.objects
  for update to authenticated
  using (bucket_id = 'media' and private.can_edit_deck(private.path_owner_id(name)))
  with check (bucket_id = 'media' and private.can_edit_deck(private.path_owner_id(name)));
create policy "editors delete media" on storage.objects
  for delete to authenticated
  using (bucket_id = 'media' and private.can_edit_deck(private.path_owner_id(name)));

create policy "co-members read avatars" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and private.shares_deck_with(private.path_owner_id(name)));
create policy "users upload their avatar" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and private.path_owner_id(name) = (select auth.uid()));
create policy "users replace their avatar" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and private.path_owner_id(name) = (select auth.uid()))
  with check (bucket_id = 'avatars' and private.path_owner_id(name) = (select auth.uid()));
create policy "users delete their avatar" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and private.path_owner_id(name) = (select auth.uid()));

create policy "users read their imports and exports" on storage.objects
  for select to authenticated
  using (bucket_id in ('imports', 'exports') and private.path_owner_id(name) = (select auth.uid()));
create policy "users upload imports" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'imports' and private.path_owner_id(name) = (select auth.uid()));
create policy "users replace their imports" on storage.objects
  for update to authenticated
  using (bucket_id = 'imports' and private.path_owner_id(name) = (select auth.uid()))
  with check (bucket_id = 'imports' and private.path_owner_id(name) = (select auth.uid()));
create policy "users delete their imports and exports" on storage.objects
  for delete to authenticated
  using (bucket_id in ('imports', 'exports') and private.path_owner_id(name) = (select auth.uid()));

-- Two-factor sessions only, as on every table in public.
create policy "two-factor sessions only" on storage.objects as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));
