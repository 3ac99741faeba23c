/**
 * Cloze parsing. A PL/pgSQL twin in the database generates cards from the same
 * rules, so every edge case here is deliberate; see README "Cloze semantics".
 */

export type ClozeDeletion = {
  /** The N of `{{cN::…}}`. */
  ordinal: number;
  /** Raw source of the answer part; may contain nested deletions and markup. */
  answer: string;
  /** Raw source after the deletion's own first `::`, or null without one. */
  hint: string | null;
  /** Offset of the opening `{{`. */
  start: number;
  /** Offset just past the closing `}}`. */
  end: number;
};

/** cards.ordinal is a Postgres integer, so larger numbers cannot be openings. */
export const maxClozeOrdinal = 2_147_483_647;

type OpenDeletion = {
  ordinal: number;
  start: number;
  contentStart: number;
  hintAt: number | null;
};

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `{{c` + ASCII digits + `::` with a number in 1..maxClozeOrdinal, else null. */
function matchOpening(text: string, at: number): { ordinal: number; length: number } | null {
  if (!text.startsWith("{{c", at)) return null;
  let end = at + 3;
  while (end < text.length && isAsciiDigit(text.charCodeAt(end))) end += 1;
  if (end === at + 3 || !text.startsWith("::", end)) return null;
  // Leading zeros do not change the value; stripping them first keeps huge
  // zero-padded numbers exact without big-number arithmetic.
  const digits = text.slice(at + 3, end).replace(/^0+/, "");
  if (digits === "" || digits.length > 10) return null;
  const ordinal = Number(digits);
  if (ordinal > maxClozeOrdinal) return null;
  return { ordinal, length: end + 2 - at };
}

/** All valid deletions, nested ones included, in order of their opening. */
export function parseCloze(text: string): ClozeDeletion[] {
  const open: OpenDeletion[] = [];
  const found: ClozeDeletion[] = [];
  let at = 0;
  while (at < text.length) {
    const opening = matchOpening(text, at);
    if (opening) {
      open.push({ ordinal: opening.ordinal, start: at, contentStart: at + opening.length, hintAt: null });
      at += opening.length;
      continue;
    }
    const innermost = open.at(-1);
    if (innermost && text.startsWith("}}", at)) {
      open.pop();
      const answerEnd = innermost.hintAt ?? at;
      found.push({
        ordinal: innermost.ordinal,
        answer: text.slice(innermost.contentStart, answerEnd),
        hint: innermost.hintAt === null ? null : text.slice(innermost.hintAt + 2, at),
        start: innermost.start,
        end: at + 2,
      });
      at += 2;
      continue;
    }
    // Only the innermost open deletion sees this `::`: text of nested
    // deletions is consumed while they are on top of the stack.
    if (innermost && innermost.hintAt === null && text.startsWith("::", at)) {
      innermost.hintAt = at;
    }
    at += 1;
  }
  // Openings still on the stack never closed: they stay literal text.
  return found.sort((a, b) => a.start - b.start);
}

/** Distinct cloze numbers, ascending: one card per number. */
export function clozeOrdinals(text: string): number[] {
  const ordinals = new Set(parseCloze(text).map((deletion) => deletion.ordinal));
  return [...ordinals].sort((a, b) => a - b);
}
