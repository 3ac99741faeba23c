/**
 * SVG images are documents that can run script when opened on their own, so
 * media SVGs are reduced to drawing (PRODUCT §5): shapes, text, gradients and
 * in-file references only — no script, event handlers, styles, foreign HTML or
 * links and images that load from elsewhere.
 */
import sanitizeHtml from "sanitize-html";

const svgTags = [
  "svg",
  "g",
  "defs",
  "symbol",
  "use",
  "title",
  "desc",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
];

const presentation = [
  "id",
  "class",
  "transform",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-miterlimit",
  "opacity",
  "clip-path",
  "clip-rule",
  "mask",
  "marker-start",
  "marker-mid",
  "marker-end",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "visibility",
  "display",
];

const geometry = [
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "width",
  "height",
  "d",
  "points",
  "pathLength",
  "dx",
  "dy",
  "rotate",
  "textLength",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "clipPathUnits",
  "maskUnits",
  "maskContentUnits",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "viewBox",
  "preserveAspectRatio",
  "href",
  "xlink:href",
];

/** References inside the file (`#id`) only; anything else could load from elsewhere. */
const localReference = /^#[\w.-]+$/;
/** `url(#id)` in paint and clip attributes; `url(https://…)` would fetch. */
const externalUrl = /url\(\s*(?!['"]?#)/i;

function keepLocal(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const kept: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if ((name === "href" || name === "xlink:href") && !localReference.test(value.trim())) continue;
    if (externalUrl.test(value)) continue;
    kept[name] = value;
  }
  return kept;
}

/** The SVG reduced to safe drawing markup, with the SVG namespace it needs to render as a file. */
export function sanitizeSvg(svg: string): string {
  const clean = sanitizeHtml(svg, {
    allowedTags: svgTags,
    allowedAttributes: {
      "*": [...presentation, ...geometry],
      svg: ["xmlns", "xmlns:xlink", "version", ...presentation, ...geometry],
    },
    allowedSchemes: [],
    allowProtocolRelative: false,
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    // Dropped with their content, not just their tags.
    nonTextTags: ["script", "style", "foreignObject", "textarea"],
    transformTags: Object.fromEntries(
      svgTags.map((tag) => [
        tag,
        (tagName: string, attribs: sanitizeHtml.Attributes) => ({ tagName, attribs: keepLocal(tagName, attribs) }),
      ]),
    ),
  });
  const trimmed = clean.trim();
  if (!trimmed.startsWith("<svg")) return "";
  return trimmed.includes('xmlns="http://www.w3.org/2000/svg"')
    ? trimmed
    : trimmed.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
}
