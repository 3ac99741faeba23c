/** A member's picture, or their initials until they set one. */
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts.at(-1)] : [parts[0]?.slice(0, 2)];
  return letters
    .map((part) => part?.[0] ?? "")
    .join("")
    .toUpperCase();
}

export function MemberAvatar({ name, path }: { name: string; path: string | null }) {
  // The same query the deck screen's avatars use: one signed link per picture.
  const url = useQuery(useEngramQueries().profile.avatarUrl(path));
  return (
    <span className="member-avatar" aria-hidden="true">
      {url.data ? <img src={url.data} alt="" /> : initials(name) || "?"}
    </span>
  );
}
