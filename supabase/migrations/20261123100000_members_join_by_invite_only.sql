-- Nobody is made a member of a deck without their consent: a user joins only
-- by accepting an invite (accept_invite) or by creating the deck (the owner
-- trigger), both security definer. Owners still change roles and remove
-- members through the update and delete policies.
drop policy "owners add members" on public.deck_members;
revoke insert on public.deck_members from authenticated;
