/**
 * Python difflib's SequenceMatcher opcodes (Ratcliff/Obershelp: the longest
 * matching block, then recursively either side of it), which Anki's typed
 * answer comparison uses; the same algorithm gives the same marks. No junk
 * function; "autojunk" as Python's default: in a second sequence of 200 or
 * more items, items making up over 1% of it are not used to start a match.
 */

export type Opcode = {
  tag: "equal" | "delete" | "insert" | "replace";
  aFrom: number;
  aTo: number;
  bFrom: number;
  bTo: number;
};

type Block = { a: number; b: number; size: number };

/** How to turn `a` into `b`, as Python's `SequenceMatcher(None, a, b).get_opcodes()`. */
export function longestMatchOpcodes(a: readonly string[], b: readonly string[]): Opcode[] {
  const opcodes: Opcode[] = [];
  let i = 0;
  let j = 0;
  for (const block of matchingBlocks(a, b)) {
    const tag = i < block.a && j < block.b ? "replace" : i < block.a ? "delete" : j < block.b ? "insert" : null;
    if (tag) opcodes.push({ tag, aFrom: i, aTo: block.a, bFrom: j, bTo: block.b });
    i = block.a + block.size;
    j = block.b + block.size;
    if (block.size > 0) opcodes.push({ tag: "equal", aFrom: block.a, aTo: i, bFrom: block.b, bTo: j });
  }
  return opcodes;
}

function indexSecond(b: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  b.forEach((item, index) => {
    const list = positions.get(item);
    if (list) list.push(index);
    else positions.set(item, [index]);
  });
  if (b.length >= 200) {
    const popular = Math.floor(b.length / 100) + 1;
    for (const [item, list] of positions) if (list.length > popular) positions.delete(item);
  }
  return positions;
}

/** Python's `get_matching_blocks`: non-overlapping matches in order, adjacent ones joined, then a (len a, len b, 0) sentinel. */
function matchingBlocks(a: readonly string[], b: readonly string[]): Block[] {
  const positions = indexSecond(b);
  const found: Block[] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  for (let range = queue.pop(); range !== undefined; range = queue.pop()) {
    const [aLow, aHigh, bLow, bHigh] = range;
    const match = longestMatch(a, b, positions, aLow, aHigh, bLow, bHigh);
    if (match.size === 0) continue;
    found.push(match);
    if (aLow < match.a && bLow < match.b) queue.push([aLow, match.a, bLow, match.b]);
    if (match.a + match.size < aHigh && match.b + match.size < bHigh) {
      queue.push([match.a + match.size, aHigh, match.b + match.size, bHigh]);
    }
  }
  found.sort((x, y) => x.a - y.a || x.b - y.b || x.size - y.size);

  const joined: Block[] = [];
  for (const block of found) {
    const last = joined[joined.length - 1];
    if (last && last.a + last.size === block.a && last.b + last.size === block.b) last.size += block.size;
    else joined.push({ ...block });
  }
  joined.push({ a: a.length, b: b.length, size: 0 });
  return joined;
}

/**
 * Python's `find_longest_match` without a junk function: the longest run in
 * both ranges, earliest in `a` and then in `b` on ties, then extended over
 * equal items that autojunk left out of the index.
 */
function longestMatch(
  a: readonly string[],
  b: readonly string[],
  positions: Map<string, number[]>,
  aLow: number,
  aHigh: number,
  bLow: number,
  bHigh: number,
): Block {
  let bestA = aLow;
  let bestB = bLow;
  let bestSize = 0;
  let runEndingAt = new Map<number, number>();
  for (let i = aLow; i < aHigh; i += 1) {
    const next = new Map<number, number>();
    for (const j of positions.get(a[i] as string) ?? []) {
      if (j < bLow) continue;
      if (j >= bHigh) break;
      const size = (runEndingAt.get(j - 1) ?? 0) + 1;
      next.set(j, size);
      if (size > bestSize) {
        bestA = i - size + 1;
        bestB = j - size + 1;
        bestSize = size;
      }
    }
    runEndingAt = next;
  }
  while (bestA > aLow && bestB > bLow && a[bestA - 1] === b[bestB - 1]) {
    bestA -= 1;
    bestB -= 1;
    bestSize += 1;
  }
  while (bestA + bestSize < aHigh && bestB + bestSize < bHigh && a[bestA + bestSize] === b[bestB + bestSize]) {
    bestSize += 1;
  }
  return { a: bestA, b: bestB, size: bestSize };
}
