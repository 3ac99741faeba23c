/**
 * The closest match of a word among candidates, as the Haskell `fuzzyset`
 * PostgREST uses for its "Perhaps you meant …" hints: cosine similarity of
 * 3-grams of the normalized words (then 2-grams if none match), the best 50
 * re-scored by the Levenshtein distance of the lower-cased words, nothing
 * under 0.33.
 */
const minScore = 0.33;

/** Lower case, keeping only letters, digits, spaces and commas. */
function normalized(text: string): string {
  return [...text.toLowerCase()].filter((ch) => /[\p{L}\p{N}\s,]/u.test(ch)).join("");
}

function gramCounts(text: string, size: number): Map<string, number> {
  const padded = `-${normalized(text)}-`;
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

const norm = (counts: Map<string, number>) => Math.sqrt([...counts.values()].reduce((sum, n) => sum + n * n, 0));

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

export function closestMatch(word: string, candidates: readonly string[]): string | null {
  const unique = [...new Set(candidates)];
  const exact = unique.find((c) => c.toLowerCase() === word.toLowerCase());
  if (exact !== undefined) return exact;
  for (const size of [3, 2]) {
    const wanted = gramCounts(word, size);
    const scored = unique.flatMap((candidate) => {
      const grams = gramCounts(candidate, size);
      let dot = 0;
      for (const [gram, n] of wanted) dot += n * (grams.get(gram) ?? 0);
      return dot > 0 ? [{ candidate, score: dot / (norm(wanted) * norm(grams)) }] : [];
    });
    if (scored.length === 0) continue;
    const rescored = scored
      .sort((a, b) => b.score - a.score)
      .slice(0, 50)
      .map(({ candidate }) => {
        const a = word.toLowerCase();
        const b = candidate.toLowerCase();
        return { candidate, score: 1 - levenshtein(a, b) / Math.max(a.length, b.length) };
      })
      .filter((r) => r.score >= minScore)
      .sort((a, b) => b.score - a.score);
    return rescored[0]?.candidate ?? null;
  }
  return null;
}
