/**
 * Type-in cards: core marks where the answer box goes on the front and where
 * the comparison goes on the back (`<engram-type-answer>`, see core's
 * type-answer.ts). These fill the marks of a face already on the page: a text
 * box (disabled where nobody answers, as in a preview) or Anki's comparison
 * of what was typed with the field's content (without combining marks for a
 * mark with `data-nc`, Anki's `{{type:nc:F}}`).
 */
import { type compareTypedAnswer, type Note, typeAnswerExpected, typeAnswerTag } from "@engram/core";
import { type RefObject, useEffect, useLayoutEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import css from "./type-answer.css?inline";

/** What the study screen does with the box: the text so far, and what typing and Enter do. */
export type TypeAnswerInput = {
  typed: string;
  onType: (text: string) => void;
  /** Enter in the box: show the answer. */
  onSubmit: () => void;
};

const boxSelector = "input#typeans";

type Compare = typeof compareTypedAnswer;

/**
 * The comparison (core's diff with its HTML entity tables, about 12 KB
 * gzipped) loads with the first type-in card, while its front is shown, so
 * the study screen does not download it for decks without one.
 */
let loadingCompare: Promise<Compare> | undefined;
let loadedCompare: Compare | undefined;
function loadCompare(): Promise<Compare> {
  loadingCompare ??= import("./type-answer-comparison.js").then(
    (module) => {
      loadedCompare = module.compareTypedAnswer;
      return loadedCompare;
    },
    (error: unknown) => {
      // A failed load (offline before the app was cached) is tried again by the next card.
      loadingCompare = undefined;
      throw error;
    },
  );
  return loadingCompare;
}

/** The comparison once loaded; null (and loading it) before. */
function useCompare(): Compare | null {
  const [compare, setCompare] = useState<Compare | null>(() => loadedCompare ?? null);
  useEffect(() => {
    if (compare) return;
    let current = true;
    loadCompare().then(
      (loaded) => {
        if (current) setCompare(() => loaded);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [compare]);
  return compare;
}

/** The answer box of the card under `container`, whether its faces are in a shadow root or not. */
export function findAnswerBox(container: ParentNode | null): HTMLInputElement | null {
  const direct = container?.querySelector<HTMLInputElement>(boxSelector);
  if (direct) return direct;
  for (const host of container?.querySelectorAll(".card-view") ?? []) {
    const found = host.shadowRoot?.querySelector<HTMLInputElement>(boxSelector);
    if (found) return found;
  }
  return null;
}

type Mark = { element: Element; field: string; reveal: boolean; combining: boolean };

/** The marks in the face, found again whenever its HTML is set anew. */
function useMarks(face: RefObject<HTMLElement | null>, html: string): Mark[] {
  const [marks, setMarks] = useState<Mark[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: html is the trigger: the face's children are replaced when it changes.
  useLayoutEffect(() => {
    const found = [...(face.current?.querySelectorAll(typeAnswerTag) ?? [])].map((element) => ({
      element,
      field: element.getAttribute("data-field") ?? "",
      reveal: element.hasAttribute("data-reveal"),
      combining: !element.hasAttribute("data-nc"),
    }));
    setMarks((old) =>
      old.length === found.length && old.every((mark, i) => mark.element === found[i]?.element) ? old : found,
    );
  }, [face, html]);
  return marks;
}

export function TypeAnswerMarks(props: {
  face: RefObject<HTMLElement | null>;
  html: string;
  note: Note;
  /** The card's ordinal, for a cloze marker (`cloze:Text`): the deletions it asks. */
  ordinal: number;
  input?: TypeAnswerInput;
}) {
  const { face, html, note, ordinal, input } = props;
  const marks = useMarks(face, html);
  const hasMarks = marks.length > 0;
  useEffect(() => {
    // The front's box already asks for the comparison the back will show.
    if (hasMarks) loadCompare().catch(() => undefined);
  }, [hasMarks]);
  if (!hasMarks) return null;
  return (
    <>
      <style>{css}</style>
      {marks.map((mark, index) =>
        createPortal(
          mark.reveal ? (
            <Comparison
              note={note}
              ordinal={ordinal}
              field={mark.field}
              combining={mark.combining}
              typed={input?.typed ?? ""}
            />
          ) : (
            <AnswerBox input={input} />
          ),
          mark.element,
          `${index}`,
        ),
      )}
    </>
  );
}

function AnswerBox({ input }: { input?: TypeAnswerInput }) {
  return (
    <input
      id="typeans"
      type="text"
      aria-label="Type the answer"
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      // biome-ignore lint/a11y/noAutofocus: the box is the one thing to do on a type-in card's front, as in Anki.
      autoFocus={input !== undefined}
      disabled={input === undefined}
      value={input?.typed ?? ""}
      onChange={(event) => input?.onType(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== "Enter" || !input) return;
        event.preventDefault();
        input.onSubmit();
      }}
    />
  );
}

function Comparison(props: { note: Note; ordinal: number; field: string; combining: boolean; typed: string }) {
  const { note, ordinal, field, combining, typed } = props;
  const compare = useCompare();
  const html = useMemo(() => {
    const expected = typeAnswerExpected(note, field, ordinal);
    if (expected === null) return null;
    return compare ? compare(typed, expected, { combining }) : "";
  }, [compare, note, ordinal, field, combining, typed]);
  if (html === null) return <span>(the note has no field {field})</span>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: compareTypedAnswer escapes every piece of text it puts in.
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
}
