import { AlertTriangle, Shapes } from "lucide-react";
import { plural } from "./file-facts.js";

/** At most this many names are listed; the count says how many there are. */
const shownNames = 10;

/** "3 images or sounds are missing: a.png, b.png, c.mp3" (the first ten named). */
export function missingMediaText(names: readonly string[], count = names.length): string {
  const listed = names.slice(0, shownNames).join(", ");
  const more = count > Math.min(names.length, shownNames) ? ", …" : "";
  const verb = count === 1 ? "is" : "are";
  return `${plural(count, "image or sound", "images or sounds")} ${verb} missing from the file: ${listed}${more}`;
}

/** Note types kept as they are, markup their templates held that cards never show, and media the file lacks. */
export function ImportNotices({
  noteTypes,
  droppedMarkup,
  missingMedia,
  missingMediaCount,
}: {
  noteTypes: { name: string; created?: boolean }[];
  droppedMarkup: { noteType: string; markup: string[] }[];
  missingMedia: string[];
  missingMediaCount?: number;
}) {
  const count = missingMediaCount ?? missingMedia.length;
  if (noteTypes.length === 0 && droppedMarkup.length === 0 && count === 0) return null;
  return (
    <div className="import-notices">
      {noteTypes.length > 0 ? (
        <div className="import-note-types">
          <h3>
            <Shapes aria-hidden="true" /> Note types kept
          </h3>
          <ul>
            {noteTypes.map((type) => (
              <li key={type.name}>
                {type.name}
                {type.created === false ? <span className="muted"> (already in the deck)</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {droppedMarkup.length > 0 ? (
        <ul className="import-warnings">
          {droppedMarkup.map(({ noteType, markup }) => (
            <li key={noteType}>
              <AlertTriangle aria-hidden="true" /> {noteType}'s templates hold {markup.join(", ")}, which cards don't
              run or show.
            </li>
          ))}
        </ul>
      ) : null}
      {count > 0 ? (
        <p className="import-warnings" role="note">
          <AlertTriangle aria-hidden="true" /> {missingMediaText(missingMedia, count)}.
        </p>
      ) : null}
    </div>
  );
}
