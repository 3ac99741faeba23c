/**
 * SVG images are documents that can run script when opened on their own, so
 * media SVGs are reduced to drawing (docs/product.md §5): shapes, text, gradients and
 * in-file references only — no script, event handlers, styles, foreign HTML or
 * links and images that load from elsewhere. The rules are in sanitize-rules.ts.
 */
export { sanitizeSvg } from "#sanitizer";
