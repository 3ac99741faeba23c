/** The sanitisers on sanitize-html, for Node (the SDK's build, tests, scripts). See sanitize-rules.ts. */
import sanitizeHtml from "sanitize-html";
import {
  answerId,
  cardAttributes,
  cardDroppedWithContent,
  cardTags,
  droppedWithoutSrc,
  finishSvg,
  keepSvgAttribute,
  linkAttributes,
  linkSchemes,
  mediaTags,
  type SanitizeOptions,
  safeMediaSrc,
  svgAttributes,
  svgDroppedWithContent,
  svgRootAttributes,
  svgTags,
} from "./sanitize-rules";
import { sanitizeStyleAttribute } from "./sanitize-style";

function keepSafeSrc(mediaBaseUrl: string | undefined): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const kept = { ...attribs };
    const safe = kept.src === undefined ? null : safeMediaSrc(kept.src, mediaBaseUrl);
    if (safe === null) delete kept.src;
    else kept.src = safe;
    return { tagName, attribs: kept };
  };
}

const keepAnswerId: sanitizeHtml.Transformer = (tagName, attribs) => {
  const kept = { ...attribs };
  if (kept.id !== answerId) delete kept.id;
  return { tagName, attribs: kept };
};

/** The style attribute reduced to what sanitize-style.ts allows, before the tag's own transform. */
function withAllowedStyle(transform?: sanitizeHtml.Transformer): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const kept = { ...attribs };
    if (kept.style !== undefined) {
      const style = sanitizeStyleAttribute(tagName, kept.style);
      if (style === "") delete kept.style;
      else kept.style = style;
    }
    return transform ? transform(tagName, kept) : { tagName, attribs: kept };
  };
}

const keepLink: sanitizeHtml.Transformer = (tagName, attribs) => ({
  tagName,
  attribs: {
    ...attribs,
    // The href trimmed as browsers (and DOMPurify) read it.
    ...(attribs.href === undefined ? {} : { href: attribs.href.trim() }),
    ...linkAttributes,
  },
});

export function sanitizeCardHtml(html: string, options: SanitizeOptions = {}): string {
  const keepSrc = keepSafeSrc(options.mediaBaseUrl);
  const transforms: Record<string, sanitizeHtml.Transformer> = {
    a: keepLink,
    ...Object.fromEntries(mediaTags.map((tag) => [tag, keepSrc])),
    hr: keepAnswerId,
  };
  return sanitizeHtml(html, {
    allowedTags: cardTags,
    allowedAttributes: cardAttributes,
    allowedSchemes: linkSchemes,
    allowedSchemesByTag: {},
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    nonTextTags: cardDroppedWithContent,
    // sanitize-html takes one transform per tag ("*" for the others), so each also filters style.
    transformTags: {
      "*": withAllowedStyle(),
      ...Object.fromEntries(Object.entries(transforms).map(([tag, transform]) => [tag, withAllowedStyle(transform)])),
    },
    // The style is already filtered (above); sanitize-html's own pass would rewrite it differently.
    parseStyleAttributes: false,
    selfClosing: [...sanitizeHtml.defaults.selfClosing, "source", "col"],
    // An image or source without a usable src shows nothing but a broken icon.
    exclusiveFilter: (frame) => droppedWithoutSrc.includes(frame.tag) && !frame.attribs.src,
  });
}

function keepLocal(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  return Object.fromEntries(Object.entries(attribs).filter(([name, value]) => keepSvgAttribute(name, value)));
}

/** The SVG reduced to safe drawing markup, with the SVG namespace it needs to render as a file. */
export function sanitizeSvg(svg: string): string {
  const clean = sanitizeHtml(svg, {
    allowedTags: svgTags,
    allowedAttributes: { "*": svgAttributes, svg: [...svgRootAttributes, ...svgAttributes] },
    allowedSchemes: [],
    allowProtocolRelative: false,
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    nonTextTags: svgDroppedWithContent,
    transformTags: Object.fromEntries(
      svgTags.map((tag) => [
        tag,
        (tagName: string, attribs: sanitizeHtml.Attributes) => ({ tagName, attribs: keepLocal(tagName, attribs) }),
      ]),
    ),
  });
  return finishSvg(clean);
}
