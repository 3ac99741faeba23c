import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";

/**
 * A host whose children render in its own open shadow root, styled only by
 * `sheets`: the page's CSS stays out and the card's CSS stays in. Media
 * elements and refs work as anywhere else; queries from outside go through
 * `host.shadowRoot` (see cardFace in card-view.tsx).
 */
export function CardShadow(props: { sheets: CSSStyleSheet[]; hidden?: boolean; children: ReactNode }) {
  const { sheets, hidden = false, children } = props;
  const host = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<ShadowRoot | null>(null);

  useLayoutEffect(() => {
    const element = host.current;
    if (element) setRoot(element.shadowRoot ?? element.attachShadow({ mode: "open" }));
  }, []);

  useLayoutEffect(() => {
    if (root) root.adoptedStyleSheets = sheets;
  }, [root, sheets]);

  return (
    // Hidden keeps the card's place while its CSS loads, so it never shows in the wrong look.
    <div ref={host} className="card-view" style={hidden ? { visibility: "hidden" } : undefined}>
      {root && createPortal(children, root)}
    </div>
  );
}

/** A stylesheet made from CSS text; replaceSync ignores `@import`, so nothing is fetched by it. */
export function styleSheet(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
}
