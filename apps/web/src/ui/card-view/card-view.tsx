/**
 * A card exactly as the study screen shows it: core's renderCard gives the
 * sanitised faces; math is typeset with KaTeX (loaded only for faces with
 * math); media named relative to the deck (`<img src="cat.png">`) are shown
 * from the deck's storage through signed links. The faces live in a shadow
 * root with the note type's sanitised CSS, under Anki's classes (`card
 * cardN`, and `nightMode night_mode` when the app is dark), so that CSS styles
 * the card and nothing else. A template's `{{Deck}}` and `{{Subdeck}}` show
 * the deck's path.
 */
import { hasMath, type Note, renderCard } from "@engram/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useEngramQueries } from "../../session/factories.js";
import faceCss from "./card-face.css?inline";
import { CardShadow, styleSheet } from "./card-shadow.js";
import { useMath } from "./load-math.js";
import { mediaNames, withMediaUrls } from "./media-html.js";
import { OcclusionMasks } from "./occlusion.js";
import { type TypeAnswerInput, TypeAnswerMarks } from "./type-answer.js";
import { useAutoplay } from "./use-autoplay.js";
import { useDeckPath } from "./use-deck-path.js";
import { useNightMode } from "./use-night-mode.js";
import { useNoteSheet } from "./use-note-sheet.js";
import "./card-view.css";

/** A signed link to one of the deck's media files, or undefined while it loads (or when it cannot). */
export function useMediaUrl(deckId: string, name: string): string | undefined {
  return useQuery(useEngramQueries().media.url(deckId, name)).data;
}

/**
 * The first element matching `selector` inside the cards under `container`:
 * a card's faces are in its shadow root, which querySelector from outside
 * does not enter.
 */
export function queryCard<E extends Element = Element>(container: ParentNode | null, selector: string): E | null {
  for (const host of container?.querySelectorAll(".card-view") ?? []) {
    const found = host.shadowRoot?.querySelector<E>(selector);
    if (found) return found;
  }
  return null;
}

let faceSheet: CSSStyleSheet | undefined;

/** Signed links by file name, and the names the deck has no file for (their link request failed). */
type MediaLinks = { urls: Record<string, string>; missing: string[] };

export function CardView(props: {
  deckId: string;
  note: Note;
  ordinal: number;
  revealed: boolean;
  autoplay?: boolean;
  /** The note type's CSS as written; sanitised here. Without it the card has the app's own look. */
  css?: string;
  /** A type-in card's answer box, for studying; without it the box shows disabled. */
  typeAnswer?: TypeAnswerInput;
  /** The card shown, when it exists (studying): a template's `{{CardID}}`. */
  cardId?: string;
}) {
  const { deckId, note, ordinal, revealed, autoplay = false, css, typeAnswer, cardId } = props;
  const queries = useEngramQueries();
  const deck = useDeckPath(deckId);
  const faces = useMemo(() => renderCard(note, ordinal, { card: { deck, cardId } }), [note, ordinal, deck, cardId]);
  const names = useMemo(
    () => [...new Set([...mediaNames(faces.front), ...(revealed ? mediaNames(faces.back) : [])])],
    [faces, revealed],
  );
  const links = useQueries({
    queries: names.map((name) => queries.media.url(deckId, name)),
    // A plain object, so the query cache's structural sharing keeps it the same while nothing changes.
    combine: useCallback(
      (results: { data?: string; isError: boolean }[]): MediaLinks => {
        const urls: Record<string, string> = {};
        const missing: string[] = [];
        results.forEach((result, index) => {
          const name = names[index];
          if (name === undefined) return;
          if (result.data) urls[name] = result.data;
          else if (result.isError) missing.push(name);
        });
        return { urls, missing };
      },
      [names],
    ),
  });
  const urls = useMemo(() => new Map(Object.entries(links.urls)), [links.urls]);
  const missing = useMemo(() => new Set(links.missing), [links.missing]);

  const math = useMath(useMemo(() => hasMath(faces.front) || hasMath(faces.back), [faces]));
  const typeset = useMemo(
    () => (math ? { front: math.typeset(faces.front), back: math.typeset(faces.back) } : faces),
    [faces, math],
  );

  const front = useMemo(() => withMediaUrls(typeset.front, urls, missing), [typeset.front, urls, missing]);
  const back = useMemo(
    () => (revealed ? withMediaUrls(typeset.back, urls, missing) : ""),
    [typeset.back, revealed, urls, missing],
  );
  const frontRef = useAutoplay(autoplay, front);
  const backRef = useAutoplay(autoplay && revealed, back);

  const noteSheet = useNoteSheet(css);
  const sheets = useMemo(() => {
    faceSheet ??= styleSheet(faceCss);
    return [faceSheet, ...(math ? [math.sheet] : []), ...(noteSheet ? [noteSheet] : [])];
  }, [math, noteSheet]);
  const night = useNightMode();

  return (
    <CardShadow sheets={sheets} hidden={noteSheet === null}>
      <div className={`card card${ordinal}${night ? " nightMode night_mode" : ""}`}>
        {/* The back is the whole answer side (renderCard), so it replaces the front. */}
        {revealed ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only KaTeX's output and media links were put in since.
          <div ref={backRef} className="card-view-face card-view-back" dangerouslySetInnerHTML={{ __html: back }} />
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: renderCard sanitised it; only KaTeX's output and media links were put in since.
          <div ref={frontRef} className="card-view-face card-view-front" dangerouslySetInnerHTML={{ __html: front }} />
        )}
        <TypeAnswerMarks
          face={revealed ? backRef : frontRef}
          html={revealed ? back : front}
          note={note}
          ordinal={ordinal}
          input={typeAnswer}
        />
        <OcclusionMasks face={revealed ? backRef : frontRef} html={revealed ? back : front} />
      </div>
    </CardShadow>
  );
}
