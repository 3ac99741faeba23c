/**
 * Anki's comparison of a typed answer with the expected one
 * (rslib/src/typeanswer.rs), apart from the markers of type-answer.ts: with
 * its HTML entity tables it is only needed once a type-in card is answered.
 */
import { decodeHTML } from "entities";
import { longestMatchOpcodes } from "./sequence-matcher";
import { escapeHtml } from "./type-answer";

export type CompareOptions = {
  /**
   * false compares without combining marks (accents, vowel points), as Anki's
   * `{{type:nc:Field}}`: "ba" matches "bá", and the expected line still shows them.
   */
  combining?: boolean;
};

/**
 * Anki's comparison of a typed answer with the expected one, as HTML that is
 * safe by construction (every piece of text is escaped): `<code id="typeans">`
 * holding the typed text marked `typeGood`/`typeBad`/`typeMissed`, an arrow,
 * and the expected text; a right answer shows once, all good; an empty one
 * shows the expected text alone. The expected answer is field HTML: its sound
 * tags, line breaks and markup are removed and its entities decoded first.
 */
export function compareTypedAnswer(typed: string, expected: string, options: CompareOptions = {}): string {
  const stripped = stripExpected(expected);
  if (typed === "") return code(escapeHtml(stripped));
  const diff = options.combining === false ? nonCombiningDiff(stripped, typed) : combiningDiff(stripped, typed);
  if (sameChars(diff.typed, diff.expected)) return code(span("typeGood", escapeHtml(diff.expectedOriginal)));
  const tokens = diffTokens(diff.typed, diff.expected);
  const typedHtml = tokens.typed.map((token) => span(token.kind, escapeHtml(isolateLeadingMark(token.text)))).join("");
  return code(`${typedHtml}<br><span id="typearrow">&darr;</span><br>${diff.renderExpected(tokens.expected)}`);
}

type TokenKind = "typeGood" | "typeBad" | "typeMissed";
/** A run of characters the comparison marks one way, named by its CSS class. */
export type DiffToken = { kind: TokenKind; text: string };

/**
 * The typed and expected lines as marked runs, from Python difflib's opcodes
 * (what Anki uses): a missing run shows in the typed line as one `-` per character.
 */
export function diffTokens(typed: string[], expected: string[]): { typed: DiffToken[]; expected: DiffToken[] } {
  const typedTokens: DiffToken[] = [];
  const expectedTokens: DiffToken[] = [];
  for (const op of longestMatchOpcodes(typed, expected)) {
    const typedText = typed.slice(op.aFrom, op.aTo).join("");
    const expectedText = expected.slice(op.bFrom, op.bTo).join("");
    switch (op.tag) {
      case "equal":
        typedTokens.push({ kind: "typeGood", text: typedText });
        expectedTokens.push({ kind: "typeGood", text: expectedText });
        break;
      case "delete":
        typedTokens.push({ kind: "typeBad", text: typedText });
        break;
      case "insert":
        typedTokens.push({ kind: "typeMissed", text: "-".repeat(op.bTo - op.bFrom) });
        expectedTokens.push({ kind: "typeMissed", text: expectedText });
        break;
      case "replace":
        typedTokens.push({ kind: "typeBad", text: typedText });
        expectedTokens.push({ kind: "typeMissed", text: expectedText });
        break;
    }
  }
  return { typed: typedTokens, expected: expectedTokens };
}

type Diff = {
  typed: string[];
  expected: string[];
  expectedOriginal: string;
  renderExpected(tokens: DiffToken[]): string;
};

/** Characters are code points in NFC, as Anki compares them. */
export function combiningDiff(expected: string, typed: string): Diff {
  const expectedChars = [...expected.normalize("NFC")];
  return {
    typed: [...typed.normalize("NFC")],
    expected: expectedChars,
    expectedOriginal: expectedChars.join(""),
    renderExpected: (tokens) =>
      tokens.map((token) => span(token.kind, escapeHtml(isolateLeadingMark(token.text)))).join(""),
  };
}

const combiningMark = /^\p{M}$/u;

/** Both sides in NFKD without combining marks; the expected line puts each character's marks back. */
function nonCombiningDiff(expected: string, typed: string): Diff {
  const typedChars = [...typed.normalize("NFKD")].filter((char) => !combiningMark.test(char));
  const expectedChars: string[] = [];
  const withMarks: string[] = [];
  for (const char of expected.normalize("NFKD")) {
    if (combiningMark.test(char)) {
      if (withMarks.length > 0) withMarks[withMarks.length - 1] += char;
    } else {
      expectedChars.push(char);
      withMarks.push(char);
    }
  }
  return {
    typed: typedChars,
    expected: expectedChars,
    expectedOriginal: expected,
    renderExpected: (tokens) => {
      let at = 0;
      return tokens
        .map((token) => {
          const end = at + [...token.text].length;
          const text = withMarks.slice(at, end).join("");
          at = end;
          return span(token.kind, escapeHtml(text));
        })
        .join("");
    },
  };
}

const soundTag = /\[sound:.+?\]/gs;
const lineBreaks = /(?:\n|<br\s?\/?>|<\/?div>)+/gi;
const markup = /<!--.*?-->|<style.*?>.*?<\/style>|<script.*?>.*?<\/script>|<.*?>/gis;

/** Anki's `strip_expected`: sound tags out, line breaks to spaces, tags out, entities decoded (no-break spaces as spaces), trimmed. */
export function stripExpected(expected: string): string {
  const text = expected.replace(soundTag, "").replace(lineBreaks, " ").replace(markup, "");
  const decoded = text.includes("&") ? decodeHTML(text).replaceAll("\u00a0", " ") : text;
  return decoded.trim();
}

function sameChars(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((char, index) => char === b[index]);
}

/** A run starting with a combining mark gets a no-break space so the mark does not join the previous run. */
function isolateLeadingMark(text: string): string {
  const first = [...text][0];
  return first !== undefined && combiningMark.test(first) ? `\u00a0${text}` : text;
}

function span(kind: TokenKind, html: string): string {
  return `<span class="${kind}">${html}</span>`;
}

function code(html: string): string {
  return `<code id="typeans">${html}</code>`;
}
