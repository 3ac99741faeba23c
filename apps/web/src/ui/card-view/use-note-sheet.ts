import { useEffect, useMemo, useState } from "react";
import { styleSheet } from "./card-shadow.js";

type Sanitize = (css: string) => string;

let sanitizer: Sanitize | undefined;
let loading: Promise<Sanitize> | undefined;

function loadSanitizer(): Promise<Sanitize> {
  loading ??= import("./note-css.js").then(({ sanitizeCardCss }) => sanitizeCardCss);
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Without its sanitiser (offline before it was cached) a card shows with the app's own look. */
const noCss: Sanitize = () => "";

/**
 * The note type's CSS, sanitised, as a stylesheet: undefined without CSS,
 * null while the sanitiser loads (the card waits unseen rather than flash
 * in the wrong look).
 */
export function useNoteSheet(css: string | undefined): CSSStyleSheet | null | undefined {
  const [sanitize, setSanitize] = useState<Sanitize | undefined>(() => sanitizer);
  useEffect(() => {
    if (!css || sanitize) return;
    let current = true;
    loadSanitizer().then(
      (loaded) => {
        sanitizer = loaded;
        if (current) setSanitize(() => loaded);
      },
      () => {
        if (current) setSanitize(() => noCss);
      },
    );
    return () => {
      current = false;
    };
  }, [css, sanitize]);
  return useMemo(() => {
    if (!css) return undefined;
    return sanitize ? styleSheet(sanitize(css)) : null;
  }, [css, sanitize]);
}
