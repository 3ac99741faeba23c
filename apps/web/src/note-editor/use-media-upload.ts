/**
 * Images and sounds a field receives (file picker, paste, drop): each is
 * uploaded to the deck's media, then inserted by its relative name. An SVG is
 * drawn as PNG on this page and the PNG is stored and inserted. A file the
 * SDK refuses (too large, wrong type, an SVG that cannot be drawn) or that
 * fails to upload inserts nothing and says why.
 */
import type { Editor } from "@tiptap/react";
import { useCallback, useState } from "react";
import { mediaUploadMessage } from "../lib/error-messages.js";
import { rasterizeSvg } from "../lib/rasterize-svg.js";
import { useEngram } from "../session/engram-context.js";

export interface MediaUploadState {
  /** Names of files being uploaded now. */
  uploading: string[];
  /** Why the last file was refused, until the next attempt. */
  error: string | null;
}

const soundExtensions = /\.(mp3|ogg|oga|m4a|wav)$/i;

function isSound(file: File): boolean {
  return file.type.startsWith("audio/") || soundExtensions.test(file.name);
}

export function useMediaUpload(deckId: string, editor: Editor | null) {
  const engram = useEngram();
  const [state, setState] = useState<MediaUploadState>({ uploading: [], error: null });

  const insertFiles = useCallback(
    async (files: readonly File[], at?: number) => {
      if (!editor || files.length === 0) return;
      setState({ uploading: [], error: null });
      let position = at;
      for (const file of files) {
        setState((current) => ({ ...current, uploading: [...current.uploading, file.name] }));
        try {
          const path = await engram.storage.uploadMedia(deckId, file, { rasterizeSvg: (svg) => rasterizeSvg(svg) });
          const name = path.slice(path.indexOf("/") + 1);
          const node = isSound(file)
            ? { type: "audio", attrs: { src: name } }
            : { type: "image", attrs: { src: name } };
          if (editor.isDestroyed) return;
          const chain = editor.chain().focus();
          if (position === undefined) chain.insertContent(node).run();
          else {
            chain.insertContentAt(Math.min(position, editor.state.doc.content.size), node).run();
            position = editor.state.selection.to;
          }
        } catch (error) {
          setState((current) => ({ ...current, error: `${file.name}: ${mediaUploadMessage(error)}` }));
        } finally {
          setState((current) => ({ ...current, uploading: current.uploading.filter((name) => name !== file.name) }));
        }
      }
    },
    [deckId, editor, engram],
  );

  return { ...state, insertFiles };
}
