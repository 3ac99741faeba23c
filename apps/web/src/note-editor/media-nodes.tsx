/**
 * Images and sounds in a field. The field's HTML names them relative to the
 * deck (`<img src="cat.png">`, `<audio controls src="a.mp3">`), exactly as the
 * cards store them; in the editor they are shown from the deck's storage
 * through the shared signed-link query, as the study screen shows them. A
 * file the deck's storage does not hold is named as missing, not waited for.
 */
import { useQuery } from "@tanstack/react-query";
import Image from "@tiptap/extension-image";
import { mergeAttributes, Node, NodeViewWrapper, type ReactNodeViewProps, ReactNodeViewRenderer } from "@tiptap/react";
import { useEngramQueries } from "../session/factories.js";

export interface MediaOptions {
  deckId: string;
}

function displayName(src: string): string {
  try {
    return decodeURIComponent(src);
  } catch {
    return src;
  }
}

/** Only names inside the deck are shown; a remote link never loads (cards drop it too). */
const isDeckFile = (src: string) => src !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith("/");

/** A deck file's signed link, or whether it is still on its way or cannot be had (not stored, or not readable). */
function useDeckFile(deckId: string, src: string): { url?: string; missing: boolean } {
  const name = isDeckFile(src) ? displayName(src) : "";
  const link = useQuery({ ...useEngramQueries().media.url(deckId, name), enabled: name !== "" });
  return { ...(link.data ? { url: link.data } : {}), missing: link.isError };
}

function ImageView({ node, selected, extension }: ReactNodeViewProps) {
  const src = String(node.attrs.src ?? "");
  const alt = typeof node.attrs.alt === "string" ? node.attrs.alt : "";
  const { url, missing } = useDeckFile((extension.options as MediaOptions).deckId, src);
  return (
    <NodeViewWrapper as="span" className={`editor-media${selected ? " is-selected" : ""}`} data-drag-handle="">
      {url ? (
        <img src={url} alt={alt || displayName(src)} draggable={false} />
      ) : !isDeckFile(src) ? (
        <span className="editor-media-placeholder">Image not stored in this deck</span>
      ) : missing ? (
        <span className="editor-media-placeholder is-missing">missing image: {displayName(src)}</span>
      ) : (
        <span className="editor-media-placeholder">Loading image…</span>
      )}
    </NodeViewWrapper>
  );
}

function AudioView({ node, selected, extension }: ReactNodeViewProps) {
  const src = String(node.attrs.src ?? "");
  const { url, missing } = useDeckFile((extension.options as MediaOptions).deckId, src);
  return (
    <NodeViewWrapper className={`editor-media editor-audio${selected ? " is-selected" : ""}`} data-drag-handle="">
      {url ? (
        // biome-ignore lint/a11y/useMediaCaption: users' own recordings come without captions.
        <audio controls src={url} aria-label={`Sound ${displayName(src)}`} />
      ) : missing ? (
        <span className="editor-media-placeholder is-missing">missing sound: {displayName(src)}</span>
      ) : (
        <span className="editor-media-placeholder">Loading sound {displayName(src)}…</span>
      )}
    </NodeViewWrapper>
  );
}

export const MediaImage = Image.extend<MediaOptions & Parameters<typeof Image.configure>[0]>({
  addOptions() {
    return { ...(this.parent?.() as object), deckId: "" } as never;
  },
  // Pasted pictures from elsewhere (a web page's remote links, data: URLs) would never show on a
  // card, whose sanitiser drops them: only images named in the deck are taken in.
  parseHTML() {
    return [{ tag: "img[src]", getAttrs: (element) => (isDeckFile(element.getAttribute("src") ?? "") ? null : false) }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(ImageView);
  },
});

/** `<audio controls src="name.mp3">`: one sound, a leaf of its own line. */
export const MediaAudio = Node.create<MediaOptions>({
  name: "audio",
  group: "block",
  atom: true,
  draggable: true,
  addOptions() {
    return { deckId: "" };
  },
  addAttributes() {
    return {
      src: {
        default: null,
        parseHTML: (element) => element.getAttribute("src") ?? element.querySelector("source")?.getAttribute("src"),
      },
    };
  },
  parseHTML() {
    return [{ tag: "audio" }];
  },
  renderHTML({ HTMLAttributes }) {
    return ["audio", mergeAttributes({ controls: "" }, HTMLAttributes)];
  },
  addNodeView() {
    return ReactNodeViewRenderer(AudioView);
  },
});
