/**
 * Draws an SVG as a PNG on the page, for the SDK's `rasterizeSvg`: no bucket
 * takes SVG, as Storage would serve it as a page that runs script
 * (supabase/README.md, "Security model on hosted Supabase"). The SVG is drawn
 * through an <img>, where it runs no script and loads nothing, at its own
 * size with the longer side at most 2048 px. Page only: Chromium cannot decode
 * SVG in a worker, so the transfer worker asks the page (transfer-client.ts).
 */

export const maxRasterSide = 2048;

const svgNamespace = "http://www.w3.org/2000/svg";
/** CSS's size for a replaced element that states none, as a browser shows such an SVG. */
const fallbackSize = { width: 300, height: 150 };
const pixelsPer: Record<string, number> = { "": 1, px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, pt: 96 / 72, pc: 16 };

/** An absolute length in px (`120`, `120px`, `2in`), or null for none, a percentage, em or nonsense. */
function lengthOf(value: string | null): number | null {
  const match = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(px|in|cm|mm|pt|pc)?\s*$/i.exec(value ?? "");
  if (!match) return null;
  const pixels = Number(match[1]) * (pixelsPer[(match[2] ?? "").toLowerCase()] ?? Number.NaN);
  return Number.isFinite(pixels) && pixels > 0 ? pixels : null;
}

function viewBoxOf(value: string | null): { width: number; height: number } | null {
  const parts = (value ?? "")
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [, , width, height] = parts;
  if (parts.length !== 4 || !parts.every(Number.isFinite) || !width || !height || width <= 0 || height <= 0) {
    return null;
  }
  return { width, height };
}

/** The size a browser gives the SVG as an image: its width and height, completed by its viewBox's ratio. */
export function intrinsicSize(root: Element): { width: number; height: number } {
  const width = lengthOf(root.getAttribute("width"));
  const height = lengthOf(root.getAttribute("height"));
  const box = viewBoxOf(root.getAttribute("viewBox"));
  if (width && height) return { width, height };
  if (box) {
    const ratio = box.width / box.height;
    if (width) return { width, height: width / ratio };
    if (height) return { width: height * ratio, height };
    return box;
  }
  return { width: width ?? fallbackSize.width, height: height ?? fallbackSize.height };
}

/** The intrinsic size scaled down so that the longer side is at most `maxSide`, in whole pixels. */
export function rasterSize(size: { width: number; height: number }, maxSide = maxRasterSide) {
  const scale = Math.min(1, maxSide / Math.max(size.width, size.height));
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

class UnreadableSvg extends Error {
  override name = "UnreadableSvg";
}

/** The SVG as a PNG; rejects with `UnreadableSvg` when it is not an SVG document or cannot be drawn. */
export async function rasterizeSvg(svg: Uint8Array | Blob, maxSide = maxRasterSide): Promise<Blob> {
  const text = svg instanceof Blob ? await svg.text() : new TextDecoder().decode(svg);
  const document_ = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = document_.documentElement;
  // A browser reports malformed XML as a <parsererror> inside what it could read.
  const malformed = document_.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "parsererror").length > 0;
  if (malformed || root.namespaceURI !== svgNamespace || root.localName !== "svg") {
    throw new UnreadableSvg("Not an SVG document.");
  }
  const natural = intrinsicSize(root);
  const { width, height } = rasterSize(natural, maxSide);
  // Scaled by a viewBox, so that a drawing capped at maxSide shrinks instead of being cut off.
  if (!viewBoxOf(root.getAttribute("viewBox"))) {
    root.setAttribute("viewBox", `0 0 ${natural.width} ${natural.height}`);
  }
  root.setAttribute("width", String(width));
  root.setAttribute("height", String(height));
  const url = URL.createObjectURL(
    new Blob([new XMLSerializer().serializeToString(document_)], { type: "image/svg+xml" }),
  );
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode().catch((error: unknown) => {
      throw new UnreadableSvg("The SVG could not be drawn.", { cause: error });
    });
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) throw new UnreadableSvg("No canvas to draw on.");
    context.drawImage(image, 0, 0, width, height);
    const png = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!png) throw new UnreadableSvg("The drawing could not be encoded.");
    return png;
  } finally {
    URL.revokeObjectURL(url);
  }
}
