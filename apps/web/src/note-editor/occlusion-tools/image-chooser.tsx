/** The image an occlusion note masks: chosen from a file, stored in the deck's media (an SVG as a PNG). */
import { useRef, useState } from "react";
import { mediaUploadMessage } from "../../lib/error-messages.js";
import { rasterizeSvg } from "../../lib/rasterize-svg.js";
import { useEngram } from "../../session/engram-context.js";

/** The media name an `<img src="…">` field shows, or "". */
export function imageName(html: string): string {
  const src = /<img\b[^>]*?\bsrc\s*=\s*(["'])(.*?)\1/i.exec(html)?.[2] ?? "";
  return src.replaceAll("&amp;", "&").replaceAll("&quot;", '"');
}

function imageHtml(name: string): string {
  return `<img src="${name.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}">`;
}

export function ImageChooser({
  id,
  deckId,
  name,
  error,
  onImage,
}: {
  /** A prefix for the element ids, unique on the page. */
  id: string;
  deckId: string;
  /** The media name shown now, or "". */
  name: string;
  error: string | undefined;
  /** The image field's new HTML, once the file is stored. */
  onImage: (html: string) => void;
}) {
  const engram = useEngram();
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const chooseImage = async (file: File | undefined) => {
    if (!file) return;
    setUpload({ busy: true, error: null });
    try {
      const path = await engram.storage.uploadMedia(deckId, file, { rasterizeSvg: (svg) => rasterizeSvg(svg) });
      onImage(imageHtml(path.slice(path.indexOf("/") + 1)));
      setUpload({ busy: false, error: null });
    } catch (failure) {
      setUpload({ busy: false, error: `${file.name}: ${mediaUploadMessage(failure)}` });
    }
  };

  return (
    <>
      <div className="occlusion-image-row">
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept="image/*"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Image to occlude"
          aria-describedby={error ? `${id}-image-error` : undefined}
          onChange={(event) => {
            void chooseImage(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        <button type="button" className="button secondary" onClick={() => fileInput.current?.click()}>
          {name ? "Change image" : "Choose image"}
        </button>
        {name && <span className="occlusion-image-name">{name}</span>}
        {upload.busy && <span role="status">Uploading…</span>}
      </div>
      {(upload.error || error) && (
        <p id={`${id}-image-error`} className="field-error" role="alert">
          {upload.error ?? error}
        </p>
      )}
    </>
  );
}
