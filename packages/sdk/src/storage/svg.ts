/**
 * SVG pictures are stored as PNG. Storage serves a file with the type its
 * uploader declared, from the project's origin, and an SVG opened there runs
 * its script; so no bucket takes `image/svg+xml`, and the device that uploads
 * an SVG first draws it as PNG (supabase/README.md, "Security model on hosted
 * Supabase"). Drawing needs a browser page (Chromium cannot decode SVG in a
 * worker), so the caller hands the SDK a rasteriser; without one an SVG is
 * refused, never stored as it is.
 */
import { EngramError } from "../errors.js";
import type { FileInput } from "./files.js";

/** Draws an SVG document as a PNG; rejects when it cannot be drawn. */
export type SvgRasterizer = (svg: Uint8Array) => Promise<Blob | Uint8Array>;

export const svgType = "image/svg+xml";

/** `diagram.svg` → `diagram.png`: notes name the PNG that is stored. */
export function pngNameFor(name: string): string {
  const base = name.replace(/\.svg$/i, "");
  return `${base || "image"}.png`;
}

export function isSvgName(name: string): boolean {
  return /\.svg$/i.test(name);
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function bytesOf(file: FileInput): Promise<Uint8Array> {
  return file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file;
}

/**
 * The PNG drawing of an SVG: `validation` (rule `svg`) when there is no
 * rasteriser, when it cannot draw this SVG, or when what it returns is not a PNG.
 */
export async function svgAsPng(svg: FileInput, rasterize: SvgRasterizer | undefined): Promise<Blob> {
  if (!rasterize) {
    throw new EngramError("validation", "SVG pictures are stored as PNG; convert this one to PNG first.", {
      field: "file",
      rule: "svg",
    });
  }
  let drawn: Blob | Uint8Array;
  try {
    drawn = await rasterize(await bytesOf(svg));
  } catch (error) {
    throw new EngramError("validation", "This SVG could not be drawn as a picture.", {
      field: "file",
      rule: "svg",
      cause: error,
    });
  }
  const png = await bytesOf(drawn);
  if (!pngSignature.every((byte, index) => png[index] === byte)) {
    throw new EngramError("validation", "This SVG could not be drawn as a picture.", { field: "file", rule: "svg" });
  }
  return new Blob([png as Uint8Array<ArrayBuffer>], { type: "image/png" });
}
