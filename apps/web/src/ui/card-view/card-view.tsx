/**
 * A card exactly as the study screen shows it: core's renderCard gives the
 * sanitised faces; media named relative to the deck (`<img src="cat.png">`)
 * are shown from the deck's storage through signed links.
 */
import { type Note, renderCard } from "@engram/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngram } from "../../session/engram-context.js";
import { mediaNames, withMediaUrls } from "./media-html.js";
import { useAutoplay } from "./use-autoplay.js";
import "./card-view.css";

/** Signed links last an hour; renew them well before. */
const mediaUrlLifetime = 50 * 60 * 1000;

function mediaUrlQuery(engram: ReturnType<typeof useEngram>, deckId: string, name: string) {
  return {
    queryKey: ["media", "url", deckId, name] as const,
    queryFn: () => engram.storage.mediaUrl(`${deckId}/${name}`),
    staleTime: mediaUrlLifetime,
    gcTime: mediaUrlLifetime,
    retry: false,
  };
}

/** A signed link to one of the deck's media files, or undefined while it loads (or when it cannot). */
export function useMediaUrl(deckId: string, name: string): string | undefined {
  const engram = useEngram();
  return useQuery(mediaUrlQuery(engram, deckId, name)).data;
}

export function CardView(props: {
  deckId: string;
  note: Note;
  ordinal: number;
  revealed: boolean;
  autoplay?: boolean;
}) {
  const { deckId, note, ordinal, revealed, autoplay = false } = props;
  const engram = useEngram();
  const faces = useMemo(() => renderCard(note, ordinal), [note, ordinal]);
  const names = useMemo(
    () => [...new Set([...mediaNames(faces.front), ...(revealed ? mediaNames(faces.back) : [])])],
    [faces, revealed],
  );
  const urls = useQueries({
    queries: names.map((name) => mediaUrlQuery(engram, deckId, name)),
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
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only media links were swapped in since. */}
      <div ref={frontRef} className="card-view-face card-view-front" dangerouslySetInnerHTML={{ __html: front }} />
      {revealed && (
        <>
          <hr className="card-view-divider" />
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only media links were swapped in since. */}
          <div ref={backRef} className="card-view-face card-view-back" dangerouslySetInnerHTML={{ __html: back }} />
        </>
      )}
    </div>
  );
}
