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
  /** Where its deletion goes in the result, which is in order of opening. */
  slot: number;
  /** Nesting depth of the deepest deletion closed inside it so far (0: none). */
  deepestInside: number;
};

/** What one left-to-right pass finds: the deletions and how deeply they nest. */
type ClozeScan = { deletions: ClozeDeletion[]; depth: number };

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

/**
 * One pass over the text, linear in its length: every opening and close is
 * handled in constant time (a stack; result slots reserved at the opening, so
 * no sort), which keeps the worst note a user can save cheap to parse.
 */
function scanCloze(text: string): ClozeScan {
  const open: OpenDeletion[] = [];
  const slots: (ClozeDeletion | null)[] = [];
  let depth = 0;
  let at = 0;
  while (at < text.length) {
    const opening = matchOpening(text, at);
    if (opening) {
      const slot = opening.ordinal === null ? -1 : slots.push(null) - 1;
      open.push({
        ordinal: opening.ordinal,
        start: at,
        contentStart: at + opening.length,
        hintAt: null,
        slot,
        deepestInside: 0,
      });
      at += opening.length;
      continue;
    }
    const innermost = open.at(-1);
    if (innermost && text.startsWith("}}", at)) {
      open.pop();
      // Depth counts well-formed deletions only: an opening still on the
      // stack below never closes if this one's parent does not.
      const height = innermost.deepestInside + 1;
      depth = Math.max(depth, height);
      const parent = open.at(-1);
      if (parent) parent.deepestInside = Math.max(parent.deepestInside, height);
      if (innermost.ordinal !== null) {
        slots[innermost.slot] = {
          ordinal: innermost.ordinal,
          answer: text.slice(innermost.contentStart, innermost.hintAt ?? at),
          hint: innermost.hintAt === null ? null : text.slice(innermost.hintAt + 2, at),
          start: innermost.start,
          end: at + 2,
        };
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
  return { deletions: slots.filter((deletion) => deletion !== null), depth };
}

/** All valid deletions, nested ones included, in order of their opening. */
export function parseCloze(text: string): ClozeDeletion[] {
  return scanCloze(text).deletions;
}

/** Distinct cloze numbers, ascending: one card per number. */
export function clozeOrdinals(text: string): number[] {
  return distinctOrdinals(scanCloze(text).deletions);
}

function distinctOrdinals(deletions: ClozeDeletion[]): number[] {
  const ordinals = new Set(deletions.map((deletion) => deletion.ordinal));
  return [...ordinals].sort((a, b) => a - b);
}

/**
 * How deeply well-formed deletions nest: 0 without any, 1 for `{{c1::a}}`,
 * 2 for `{{c1::a {{c2::b}}}}`. A deletion numbered above maxClozeOrdinal
 * counts, as it nests like any other.
 */
export function clozeNesting(text: string): number {
  return scanCloze(text).depth;
}
