/// <reference lib="dom" />
/**
 * The sanitisers on DOMPurify over the browser's own HTML parser, so the app
 * ships no HTML parser of its own (sanitize-html brings postcss and
 * htmlparser2). The rules are sanitize-rules.ts, shared with sanitize-node.ts;
 * core's tests run both against the same cases.
 */
import DOMPurify, { type Config, type WindowLike } from "dompurify";
import {
  allowedHref,
  answerId,
  cardAttributes,
  cardDroppedWithContent,
  cardTags,
  droppedWithoutSrc,
  finishSvg,
  keepSvgAttribute,
  linkAttributes,
  mediaTags,
  type SanitizeOptions,
  safeMediaSrc,
  svgAttributes,
  svgDroppedWithContent,
  svgRootAttributes,
  svgTags,
} from "./sanitize-rules";
import { sanitizeStyleAttribute } from "./sanitize-style";

export type SanitizerWindow = WindowLike & { document: Document; XMLSerializer: typeof XMLSerializer };

/** href and src are judged by the hooks below (the shared rules), every other attribute carries no URL. */
const anyValue = /^/;

const allCardAttributes = [...new Set(Object.values(cardAttributes).flat())];

export interface Sanitizers {
  sanitizeCardHtml(html: string, options?: SanitizeOptions): string;
  sanitizeSvg(svg: string): string;
}

/** Both sanitisers over one window: the browser's, or jsdom's in core's tests. */
export function createDomSanitizers(window: SanitizerWindow): Sanitizers {
  const cards = DOMPurify(window);
  let mediaBaseUrl: string | undefined;
  cards.addHook("uponSanitizeAttribute", (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    const allowed = cardAttributes["*"]?.includes(name) || cardAttributes[tag]?.includes(name);
    if (!allowed || (name === "id" && data.attrValue !== answerId)) {
      data.keepAttr = false;
    } else if (name === "style") {
      const style = sanitizeStyleAttribute(tag, data.attrValue);
      if (style === "") data.keepAttr = false;
      else data.attrValue = style;
    } else if (name === "href" && !allowedHref(data.attrValue)) {
      data.keepAttr = false;
    } else if (name === "src" && mediaTags.includes(tag)) {
      const safe = safeMediaSrc(data.attrValue, mediaBaseUrl);
      if (safe === null) data.keepAttr = false;
      else data.attrValue = safe;
    }
  });
  // Copies: DOMPurify lower-cases the lists it is given in place, which would
  // break sanitize-node.ts's case-sensitive SVG names sharing them.
  const cardConfig: Config & { RETURN_DOM_FRAGMENT: true } = {
    ALLOWED_TAGS: [...cardTags],
    ALLOWED_ATTR: allCardAttributes,
    ALLOWED_URI_REGEXP: anyValue,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true,
    FORBID_CONTENTS: [...cardDroppedWithContent],
    RETURN_DOM_FRAGMENT: true,
  };

  const svgs = DOMPurify(window);
  svgs.addHook("uponSanitizeAttribute", (node, data) => {
    const root = node.nodeName.toLowerCase() === "svg";
    if (svgRootAttributes.includes(data.attrName) ? !root : !keepSvgAttribute(data.attrName, data.attrValue)) {
      data.keepAttr = false;
    }
  });
  const svgConfig: Config & { RETURN_DOM_FRAGMENT: true } = {
    ALLOWED_TAGS: [...svgTags],
    ALLOWED_ATTR: [...svgRootAttributes, ...svgAttributes],
    ALLOWED_URI_REGEXP: anyValue,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true,
    FORBID_CONTENTS: [...svgDroppedWithContent],
    RETURN_DOM_FRAGMENT: true,
  };

  return {
    sanitizeCardHtml(html, options = {}) {
      mediaBaseUrl = options.mediaBaseUrl;
      const fragment = cards.sanitize(html, cardConfig);
      for (const link of fragment.querySelectorAll("a")) {
        for (const [name, value] of Object.entries(linkAttributes)) link.setAttribute(name, value);
      }
      // An image or source without a usable src shows nothing but a broken icon.
      for (const element of fragment.querySelectorAll(droppedWithoutSrc.join(","))) {
        if (!element.hasAttribute("src")) element.remove();
      }
      const holder = window.document.createElement("div");
      holder.append(fragment);
      return holder.innerHTML;
    },
    sanitizeSvg(svg) {
      const fragment = svgs.sanitize(svg, svgConfig);
      // XML, not HTML: the result is saved as an .svg file, which an XML parser reads.
      const serializer = new window.XMLSerializer();
      return finishSvg([...fragment.childNodes].map((node) => serializer.serializeToString(node)).join(""));
    },
  };
}

let browserSanitizers: Sanitizers | undefined;
const inBrowser = () => {
  browserSanitizers ??= createDomSanitizers(globalThis as unknown as SanitizerWindow);
  return browserSanitizers;
};

export function sanitizeCardHtml(html: string, options: SanitizeOptions = {}): string {
  return inBrowser().sanitizeCardHtml(html, options);
}

export function sanitizeSvg(svg: string): string {
  return inBrowser().sanitizeSvg(svg);
}
