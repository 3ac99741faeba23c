/**
 * A card exactly as the study screen shows it: core's renderCard gives the
 * sanitised faces; media named relative to the deck (`<img src="cat.png">`)
 * are shown from the deck's storage through signed links.
 */
import { type Note, renderCard } from "@engram/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngramQueries } from "../../session/factories.js";
import { mediaNames, withMediaUrls } from "./media-html.js";
import { type TypeAnswerInput, TypeAnswerMarks } from "./type-answer.js";
import { useAutoplay } from "./use-autoplay.js";
import "./card-view.css";

/** A signed link to one of the deck's media files, or undefined while it loads (or when it cannot). */
export function useMediaUrl(deckId: string, name: string): string | undefined {
  return useQuery(useEngramQueries().media.url(deckId, name)).data;
}

export function CardView(props: {
  deckId: string;
  note: Note;
  ordinal: number;
  revealed: boolean;
  autoplay?: boolean;
  /** A type-in card's answer box, for studying; without it the box shows disabled. */
  typeAnswer?: TypeAnswerInput;
}) {
  const { deckId, note, ordinal, revealed, autoplay = false, typeAnswer } = props;
  const queries = useEngramQueries();
  const faces = useMemo(() => renderCard(note, ordinal), [note, ordinal]);
  const names = useMemo(
    () => [...new Set([...mediaNames(faces.front), ...(revealed ? mediaNames(faces.back) : [])])],
    [faces, revealed],
  );
  const urls = useQueries({
    queries: names.map((name) => queries.media.url(deckId, name)),
    combine: (results) => {
      const found = new Map<string, string>();
      results.forEach((result, index) => {
        const name = names[index];
        if (name !== undefined && result.data) found.set(name, result.data);
      });
      return found;
    },
  });
  const front = useMemo(() => withMediaUrls(faces.front, urls), [faces.front, urls]);
  const back = useMemo(() => (revealed ? withMediaUrls(faces.back, urls) : ""), [faces.back, revealed, urls]);
  const frontRef = useAutoplay(autoplay, front);
  const backRef = useAutoplay(autoplay && revealed, back);

  return (
    <div className="card-view">
      {/* The back is the whole answer side (renderCard), so it replaces the front. */}
      {revealed ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only media links were swapped in since.
        <div ref={backRef} className="card-view-face card-view-back" dangerouslySetInnerHTML={{ __html: back }} />
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only media links were swapped in since.
        <div ref={frontRef} className="card-view-face card-view-front" dangerouslySetInnerHTML={{ __html: front }} />
      )}
      <TypeAnswerMarks
        face={revealed ? backRef : frontRef}
        html={revealed ? back : front}
        note={note}
        input={typeAnswer}
      />
    </div>
  );
}
