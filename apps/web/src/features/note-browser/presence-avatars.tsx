/** The other people viewing the deck, as avatars (initials until they set a picture), named for screen readers. */
import type { DeckPresence } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts.at(-1)] : [parts[0]?.slice(0, 2)];
  return letters
    .map((part) => part?.[0] ?? "")
    .join("")
    .toUpperCase();
}

function Avatar({ person }: { person: DeckPresence }) {
  const name = person.displayName ?? "Someone";
  const path = person.avatarPath;
  // Cached per picture, so every row and visit reuses one signed link.
  const url = useQuery(useEngramQueries().profile.avatarUrl(path));
  const label = person.editingNoteId ? `${name} (editing a note)` : `${name} (viewing)`;
  return (
    <li className="avatar" title={label}>
      {url.data ? <img src={url.data} alt="" /> : <span aria-hidden="true">{initials(name) || "?"}</span>}
      <span className="visually-hidden">{label}</span>
    </li>
  );
}

export function PresenceAvatars({ others }: { others: DeckPresence[] }) {
  if (others.length === 0) return null;
  return (
    <div className="presence">
      <ul className="avatars" aria-label={`Also here: ${others.length === 1 ? "1 person" : `${others.length} people`}`}>
        {others.slice(0, 6).map((person) => (
          <Avatar key={person.userId} person={person} />
        ))}
      </ul>
      {others.length > 6 ? <span className="muted">+{others.length - 6}</span> : null}
    </div>
  );
}
