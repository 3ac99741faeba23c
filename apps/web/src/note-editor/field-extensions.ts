/** The TipTap extensions of one note field: formatting cards keep, deck media, cloze and the editor's keys. */
import { Extension } from "@tiptap/react";
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
      // Card HTML keeps paragraphs, lists, bold, italic, underline, links, code and line breaks;
      // the rest would be dropped by the sanitiser when the card is shown.
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
    MediaImage.configure({ deckId: options.deckId, inline: true }),
    MediaAudio.configure({ deckId: options.deckId }),
    ClozeShortcuts,
    FieldKeys,
  ];
}
