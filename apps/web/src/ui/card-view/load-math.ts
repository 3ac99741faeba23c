import { useEffect, useState } from "react";

/** What a face with math needs: the typesetter and KaTeX's stylesheet, from their own lazily loaded chunks. */
export type MathSupport = { typeset: (html: string) => string; sheet: CSSStyleSheet };

let loading: Promise<MathSupport> | undefined;

function loadMath(): Promise<MathSupport> {
  loading ??= Promise.all([import("./typeset-math.js"), import("./math-sheet.js")]).then(
    ([{ typesetMath }, { mathSheet }]) => ({ typeset: typesetMath, sheet: mathSheet }),
  );
  // A failed download (offline before it was cached) is tried again by the next face with math.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

let loaded: MathSupport | undefined;

/** KaTeX once `needed` (a face holds math); undefined until it has loaded, then the same object for every card. */
export function useMath(needed: boolean): MathSupport | undefined {
  const [math, setMath] = useState(loaded);
  useEffect(() => {
    if (!needed || math) return;
    let current = true;
    loadMath().then(
      (support) => {
        loaded = support;
        if (current) setMath(support);
      },
      () => {
        // Without KaTeX the formula stays as its source, which is readable.
      },
    );
    return () => {
      current = false;
    };
  }, [needed, math]);
  return needed ? math : undefined;
}
