-- Buckets and who may touch which object. Paths: media/<deck_id>/<file>,
-- avatars/<user_id>/<file>, imports/<user_id>/<file>, exports/<user_id>/<file>.

-- No bucket takes SVG, HTML or XML: Storage serves a file with the type its
-- uploader declared, from the project's origin, so an accepted
-- 'image/svg+xml' would be a page that runs script there. The apps turn SVG
-- into PNG on the device before uploading it.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('media', 'media', false, 10485760, array[
    'image/png', 'image/jpeg', 'image/gif', 'image/webp',
    'audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/x-m4a', 'audio/wav', 'audio/x-wav'
  ]),
  ('avatars', 'avatars', false, 2097152, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  ('imports', 'imports', false, 209715200, array[
    'application/zip', 'application/octet-stream', 'text/csv', 'text/tab-separated-values', 'text/plain'
  ]),
  ('exports', 'exports', false, 209715200, array[
    'application/zip', 'application/octet-stream', 'text/csv', 'text/tab-separated-values', 'text/plain'
  ])
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

-- Every object lies directly in its folder: '<folder>/<file>', a file name of
-- 1 to 255 characters that is not hidden ('.', '..', '.x') and holds no
-- control character. Nothing Engram stores uses deeper folders.
create function private.is_flat_object_name(p_name text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_name ~ '^[^/]+/[^/.][^/]{0,254}$' and p_name !~ '[[:cntrl:]]'
$$;

-- Whether an object's declared type and size are ones its bucket accepts.
-- Storage checks a bucket's allowed_mime_types and file_size_limit when a
-- file is uploaded, not when one is copied or moved into the bucket: a copy
-- is checked only by the insert policies, with the source's metadata (and the
-- type the copy declares); a move only by the update policies, with the
-- source's metadata. At upload the row the policies see holds the declared
-- 'mimetype' but no 'size' (only the request's 'contentLength', multipart
-- framing included), so the size is checked where it is known and the
-- bucket's own limit covers uploads.
create function private.fits_bucket(p_bucket_id text, p_metadata jsonb) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((
    select
      (
        coalesce(cardinality(b.allowed_mime_types), 0) = 0
        or p_metadata ->> 'mimetype' = any (b.allowed_mime_types)
        or exists (
          select 1 from unnest(b.allowed_mime_types) allowed
          where allowed like '%/*' and split_part(p_metadata ->> 'mimetype', '/', 1) = split_part(allowed, '/', 1)
        )
      )
      and (
        b.file_size_limit is null
        or not (p_metadata ? 'size')
        or (p_metadata ->> 'size' ~ '^[0-9]{1,15}$' and (p_metadata ->> 'size')::bigint <= b.file_size_limit)
      )
    from storage.buckets b
    where b.id = p_bucket_id
  ), false)
$$;

-- What every write through Storage must be, whichever bucket policy allows it:
-- owned by the caller (Storage records the caller as owner on upload, copy and
-- move), flat in its folder, of a type and size its bucket takes. Restrictive,
-- so it holds whichever permissive policy lets a write through: a move between
-- buckets passes one bucket's update policy with the old row and another's
-- with the new one, and must still suit the bucket it lands in.
create policy "objects are written by their owner as their bucket allows" on storage.objects
  as restrictive for insert to authenticated
  with check (
    owner_id = (select auth.uid())::text
    and private.is_flat_object_name(name)
    and private.fits_bucket(bucket_id, metadata)
  );
create policy "objects are rewritten by their owner as their bucket allows" on storage.objects
  as restrictive for update to authenticated
  using (true)
  with check (
    owner_id = (select auth.uid())::text
    and private.is_flat_object_name(name)
    and private.fits_bucket(bucket_id, metadata)
  );

-- Two-factor sessions only, as on every table in public.
create policy "two-factor sessions only" on storage.objects as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));
