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

/**
 * cards.ordinal is a Postgres integer. A larger number still opens a deletion
 * (it nests and takes a `}}` like any other) but makes no card, so parseCloze
 * leaves it out and it renders as written.
 */
export const maxClozeOrdinal = 2_147_483_647;

type OpenDeletion = {
  /** null for a number above maxClozeOrdinal. */
  ordinal: number | null;
  start: number;
  contentStart: number;
  hintAt: number | null;
};

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `{{c` + ASCII digits + `::` with a number of at least 1, else null. */
function matchOpening(text: string, at: number): { ordinal: number | null; length: number } | null {
  if (!text.startsWith("{{c", at)) return null;
  let end = at + 3;
  while (end < text.length && isAsciiDigit(text.charCodeAt(end))) end += 1;
  if (end === at + 3 || !text.startsWith("::", end)) return null;
  // Leading zeros do not change the value; stripping them first keeps huge
  // zero-padded numbers exact without big-number arithmetic.
  const digits = text.slice(at + 3, end).replace(/^0+/, "");
  if (digits === "") return null;
  const value = digits.length > 10 ? Number.POSITIVE_INFINITY : Number(digits);
  return { ordinal: value > maxClozeOrdinal ? null : value, length: end + 2 - at };
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
      if (innermost.ordinal !== null) {
        found.push({
          ordinal: innermost.ordinal,
          answer: text.slice(innermost.contentStart, innermost.hintAt ?? at),
          hint: innermost.hintAt === null ? null : text.slice(innermost.hintAt + 2, at),
          start: innermost.start,
          end: at + 2,
        });
      }
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
