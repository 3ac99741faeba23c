/** The TipTap extensions of one note field: formatting cards keep, deck media, cloze and the editor's keys. */
import { Extension, Mark, mergeAttributes, Node } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { ClozeShortcuts } from "./cloze-extension.js";
import { MediaAudio, MediaImage } from "./media-nodes.js";
import { noteEditorShortcuts } from "./shortcuts.js";

/** Links open only on the web or by email; anything else (javascript:, data:) is refused. */
export const isAllowedLink = (href: string) => {
  if (!/^(https?:\/\/|mailto:)/i.test(href.trim())) return false;
  try {
    new URL(href.trim());
    return true;
  } catch {
    return false;
  }
};

/** `<sub>` and `<sup>`, which Anki's editor makes and cards keep; a run is one or the other. */
const Subscript = Mark.create({
  name: "subscript",
  excludes: "superscript",
  parseHTML: () => [{ tag: "sub" }],
  renderHTML: ({ HTMLAttributes }) => ["sub", mergeAttributes(HTMLAttributes), 0],
});

const Superscript = Mark.create({
  name: "superscript",
  excludes: "subscript",
  parseHTML: () => [{ tag: "sup" }],
  renderHTML: ({ HTMLAttributes }) => ["sup", mergeAttributes(HTMLAttributes), 0],
});

/** An imported `<span style="…" class="…">`, kept as written (the card sanitiser decides what shows). */
const StyledSpan = Mark.create({
  name: "styledSpan",
  addAttributes() {
    return {
      style: { default: null, parseHTML: (element) => element.getAttribute("style") },
      class: { default: null, parseHTML: (element) => element.getAttribute("class") },
    };
  },
  parseHTML: () => [
    {
      tag: "span",
      getAttrs: (element) => (element.hasAttribute("style") || element.hasAttribute("class") ? null : false),
    },
  ],
  renderHTML: ({ HTMLAttributes }) => ["span", HTMLAttributes, 0],
});

/**
 * Anki's reading aids, `<ruby>漢<rt>kan</rt></ruby>`: one unit in the editor,
 * deleted or kept whole. Any other shape of ruby is left to the HTML view.
 */
const Ruby = Node.create({
  name: "ruby",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { base: { default: "" }, reading: { default: "" } };
  },
  parseHTML: () => [
    {
      tag: "ruby",
      getAttrs: (element) => {
        const [base, reading, ...rest] = [...element.childNodes];
        const simple =
          rest.length === 0 &&
          element.attributes.length === 0 &&
          base?.nodeType === 3 &&
          reading?.nodeType === 1 &&
          (reading as Element).localName === "rt" &&
          (reading as Element).attributes.length === 0 &&
          [...reading.childNodes].every((child) => child.nodeType === 3);
        return simple ? { base: base.textContent ?? "", reading: reading.textContent ?? "" } : false;
      },
    },
  ],
  renderHTML: ({ node }) => ["ruby", String(node.attrs.base), ["rt", String(node.attrs.reading)]],
  renderText: ({ node }) => String(node.attrs.base),
});

/** Pasted pages bring their own classes and inline styles, which mean nothing on a card: dropped. */
export function withoutPastedStyling(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll("[style], [class]")) {
    element.removeAttribute("style");
    element.removeAttribute("class");
  }
  return template.innerHTML;
}

export function fieldExtensions(options: { deckId: string; onLinkShortcut: () => void }) {
  const FieldKeys = Extension.create({
    name: "fieldKeys",
    priority: 1000,
    addKeyboardShortcuts() {
      return {
        // Saving belongs to the dialog: swallow the hard break TipTap binds to the same keys.
        [noteEditorShortcuts.save.keys]: () => true,
        [noteEditorShortcuts.link.keys]: () => {
          options.onLinkShortcut();
          return true;
        },
      };
    },
  });
  return [
    StarterKit.configure({
      // Card HTML keeps paragraphs, lists, bold, italic, underline, links, code and line breaks
      // (and the marks and ruby below); a field holding anything else opens in the HTML view.
      blockquote: false,
      codeBlock: false,
      heading: false,
      horizontalRule: false,
      strike: false,
      link: {
        openOnClick: false,
        autolink: true,
        protocols: ["mailto"],
        isAllowedUri: (url) => isAllowedLink(url),
      },
    }),
    Subscript,
    Superscript,
    StyledSpan,
    Ruby,
    MediaImage.configure({ deckId: options.deckId, inline: true }),
    MediaAudio.configure({ deckId: options.deckId }),
    ClozeShortcuts,
    FieldKeys,
  ];
}
