/**
 * An image occlusion card's faces before sanitising, as Anki's stock template
 * lays them out (rslib/src/image_occlusion/notetype.rs): the header, the image
 * with its masks, and on the back the back extra. The masks travel as JSON in
 * `data-masks`, which the study screen (apps/web card-view/occlusion.tsx) draws
 * as an SVG over the image; markup characters in it are written as JSON
 * escapes so both sanitisers keep the attribute exactly as written.
 */
import { type ImageOcclusionFields, occlusionMasks, occlusionTag, parseOcclusions } from "./image-occlusion";

function maskAttribute(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("&", "\\u0026")
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("'", "\\u0027")
    .replaceAll('"', "&quot;");
}

/** Anki's image field rarely names its picture; the card's image gets a plain description then. */
function describedImage(image: string): string {
  return image.replace(/<img\b(?![^>]*\balt\s*=)/gi, '<img alt="The image with masked areas"');
}

function container(fields: ImageOcclusionFields, ordinal: number, side: "front" | "back"): string {
  const masks = occlusionMasks(parseOcclusions(fields.occlusions), ordinal, side);
  return `<${occlusionTag} data-ordinal="${ordinal}" data-side="${side}" data-masks="${maskAttribute(masks)}">${describedImage(fields.image)}</${occlusionTag}>`;
}

function block(html: string): string {
  return html.trim() === "" ? "" : `<div>${html}</div>\n`;
}

export function occlusionFaces(fields: ImageOcclusionFields, ordinal: number): { front: string; back: string } {
  const header = block(fields.header);
  return {
    front: `${header}${container(fields, ordinal, "front")}`,
    back: `${header}${container(fields, ordinal, "back")}\n${block(fields.back_extra)}`,
  };
}
