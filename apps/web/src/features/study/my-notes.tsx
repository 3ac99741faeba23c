/**
 * The user's own My notes on the card's note (docs/product.md §3), under the
 * card once the answer shows. Plain text, shown as text: never read as HTML.
 * Read from the card's first showing, so it is there as the answer opens.
 */
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";

export function MyNotes({ noteId, revealed }: { noteId: string; revealed: boolean }) {
  const personal = useQuery(useEngramQueries().personalNotes.detail(noteId));
  const text = personal.data?.text ?? "";
  if (!revealed || text.trim() === "") return null;
  return (
    <aside className="my-notes" aria-labelledby="my-notes-heading">
      <h2 id="my-notes-heading">My notes</h2>
      <p>{text}</p>
    </aside>
  );
}
