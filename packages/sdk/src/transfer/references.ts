/** The deck media a note's HTML refers to: relative `src` names, as the card view resolves them. */

export const sourcePattern = /\bsrc\s*=\s*(["'])([^"']+)\1/gi;

export function decodeName(src: string): string {
  try {
    return decodeURIComponent(src);
  } catch {
    return src;
  }
}

function isRelative(src: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith("/");
}

/** Every relative media name in these fields' HTML. */
export function mediaNamesIn(fields: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const html of fields) {
    for (const match of html.matchAll(sourcePattern)) {
      const src = match[2] ?? "";
      if (isRelative(src)) names.add(decodeName(src));
    }
  }
  return names;
}
